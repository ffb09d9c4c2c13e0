// The bursary tables: the schemes (sources/bursaries.csv), their application cycles, one row per published
// cycle with the kind of witness it rests on (sources/bursary-cycles.csv), and the controlled vocabulary of
// fields of study (sources/fields-of-study.csv). sources/README.md documents the same columns for people.
// Checks on one row are here; checks across rows (every bursary has a cycle, the basis of a recurrence, every
// field used, provinces that exist) are in build/bursaries.ts.
import { z } from "zod";
import { WITNESS_KINDS } from "../../domain/evidence.ts";
import {
  BURSARY_PROVIDER_TYPES,
  CITIZENSHIP,
  COVERS,
  CYCLE_DATES_FROM,
  FIELDS_OF_STUDY,
  RECURRENCE_BASES,
  RECURRENCES,
  STUDY_LEVELS,
} from "../../lib/vocabulary.ts";
import { defineTable } from "./define.ts";
import * as cell from "./cells.ts";

/** CESM 2008 first-order categories, 01 to 20. */
const CESM_CATEGORIES = Array.from({ length: 20 }, (_, i) => String(i + 1).padStart(2, "0")) as [string, ...string[]];

export function bursaryTables(today: string) {
  const provenance = cell.provenance(today);
  // Some providers (provincial governments, trusts) have no https page: bursary tables accept http:// too.
  const bursaryProvenance = { ...provenance, source_url: cell.webUrl() };

  const fieldsOfStudy = defineTable({
    name: "fields-of-study",
    patterns: ["fields-of-study.csv"],
    row: z.object({
      slug: cell.oneOf(FIELDS_OF_STUDY),
      name: cell.text(),
      cesm_code: cell.listOf(CESM_CATEGORIES, { what: "a CESM category from 01 to 20" }),
      description: cell.text(),
      ...provenance,
    }),
    key: ["slug"],
  });

  const bursaries = defineTable({
    name: "bursaries",
    patterns: ["bursaries.csv"],
    row: z
      .object({
        slug: cell.slug(),
        name: cell.text(),
        provider: cell.text(),
        provider_type: cell.oneOf(BURSARY_PROVIDER_TYPES),
        fields: cell.listOf(FIELDS_OF_STUDY, { what: "a field of study slug from fields-of-study.csv" }),
        covers: cell.listOf(COVERS, { optional: true }),
        value_zar: cell.optionalInteger(1, 10_000_000),
        study_levels: cell.listOf(STUDY_LEVELS),
        min_average: cell.optionalInteger(1, 100),
        household_income_max_zar: cell.optionalInteger(1, 100_000_000),
        citizenship: cell.optionalOneOf(CITIZENSHIP),
        provinces: cell.optionalSlugList(),
        eligibility: cell.text(),
        application_url: cell.webUrl(),
        recurs: cell.optionalOneOf(RECURRENCES),
        recurs_basis: cell.optionalOneOf(RECURRENCE_BASES),
        ...bursaryProvenance,
      })
      .refine((r) => r.recurs === null || r.recurs_basis !== null, {
        path: ["recurs_basis"],
        error: `the basis of the recurrence, one of: ${RECURRENCE_BASES.join(", ")} (recurs is annual)`,
      })
      .refine((r) => r.recurs !== null || r.recurs_basis === null, {
        path: ["recurs"],
        error: `${RECURRENCES.join(", ")} (recurs_basis is given), or an empty recurs_basis`,
      }),
    key: ["slug"],
  });

  const bursaryCycles = defineTable({
    name: "bursary-cycles",
    patterns: ["bursary-cycles.csv"],
    row: z
      .object({
        bursary_slug: cell.slug(),
        intake_year: cell.integer(2000, 2100),
        open_date: cell.optionalDate(),
        close_date: cell.date(),
        evidence_kind: cell.oneOf(WITNESS_KINDS),
        dates_from: cell.oneOf(CYCLE_DATES_FROM),
        // A second witness of the same dates, of another lineage (a third-party cycle with one is medium).
        corroborated_by: cell.optionalWebUrl(),
        ...bursaryProvenance,
      })
      .refine((r) => r.open_date === null || r.open_date <= r.close_date, {
        path: ["close_date"],
        error: "a close_date on or after open_date",
      })
      .refine((r) => Number(r.close_date.slice(0, 4)) <= r.intake_year && Number(r.close_date.slice(0, 4)) >= r.intake_year - 2, {
        path: ["close_date"],
        error: "a close_date in the intake year or one of the two years before it (check intake_year: the academic year the bursary funds)",
      })
      .refine((r) => r.corroborated_by !== r.source_url, {
        path: ["corroborated_by"],
        error: "another witness than source_url, or an empty cell",
      }),
    key: ["bursary_slug", "intake_year"],
    references: [{ column: "bursary_slug", table: "bursaries", targetColumn: "slug" }],
  });

  return { fieldsOfStudy, bursaries, bursaryCycles };
}
