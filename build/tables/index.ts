// The source tables, one zod row schema each. sources/README.md documents the same columns for people.
import { z } from "zod";
import {
  FEE_TYPES,
  LANGUAGE_LEVELS,
  QUALIFICATION_TYPES,
  SCHOOL_PHASES,
  SCHOOL_SECTORS,
  SUBJECT_GROUPS,
  TEACHING_LANGUAGES,
  UNIVERSITY_TYPES,
} from "../../lib/vocabulary.ts";
import { WITNESS_KINDS } from "../../domain/evidence.ts";
import { defineTable } from "./define.ts";
import * as cell from "./cells.ts";
import { apsTables } from "./aps.ts";
import { nscResultsTable } from "./nsc.ts";
import { bursaryTables } from "./bursaries.ts";

export function sourceTables(today: string) {
  const provenance = cell.provenance(today);

  const provinces = defineTable({
    name: "provinces",
    patterns: ["provinces.csv"],
    row: z.object({
      id: cell.slug(),
      code: cell.trimmedUpper(),
      name: cell.text(),
      ...provenance,
    }),
    key: ["id"],
  });

  const universities = defineTable({
    name: "universities",
    patterns: ["universities.csv"],
    row: z.object({
      id: cell.uuid(),
      slug: cell.slug(),
      name: cell.text(),
      short_name: cell.text(),
      province_id: cell.slug(),
      type: cell.optionalOneOf(UNIVERSITY_TYPES),
      website: cell.httpsUrl(),
      ...provenance,
    }),
    key: ["id"],
    references: [{ column: "province_id", table: "provinces", targetColumn: "id" }],
  });

  const applicationCycles = defineTable({
    name: "application-cycles",
    patterns: ["application-cycles.csv"],
    row: z
      .object({
        university_slug: cell.slug(),
        intake_year: cell.integer(2000, 2100),
        applies_to: cell.text(),
        open_date: cell.optionalDate(),
        close_date: cell.date(),
        ...provenance,
      })
      .refine((r) => r.open_date === null || r.open_date <= r.close_date, {
        path: ["close_date"],
        error: "a close_date on or after open_date",
      }),
    key: ["university_slug", "intake_year", "applies_to"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  const universityFees = defineTable({
    name: "university-fees",
    patterns: ["university-fees.csv"],
    row: z.object({
      university_slug: cell.slug(),
      intake_year: cell.integer(2000, 2100),
      fee_type: cell.oneOf(FEE_TYPES),
      applies_to: cell.text(),
      amount_zar: cell.decimal(0, 100_000),
      ...provenance,
    }),
    key: ["university_slug", "intake_year", "fee_type", "applies_to"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  // The statutory minimum needs 30% in the university's language of learning and teaching (domain/nsc-pass.ts).
  const teachingLanguages = defineTable({
    name: "teaching-languages",
    patterns: ["teaching-languages.csv"],
    row: z.object({
      university_slug: cell.slug(),
      language: cell.oneOf(TEACHING_LANGUAGES),
      ...provenance,
      note: cell.optionalText(),
    }),
    key: ["university_slug", "language"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  // The editions of the upstream datasets the national tables were imported from (GET /v1/meta).
  const upstreamEditions = defineTable({
    name: "upstream-editions",
    patterns: ["upstream-editions.csv"],
    row: z.object({
      dataset: cell.slug(),
      resource: cell.slug(),
      title: cell.text(),
      edition: cell.text(),
      ...provenance,
    }),
    key: ["dataset"],
  });

  const subjects = defineTable({
    name: "subjects",
    patterns: ["subjects.csv"],
    row: z.object({
      slug: cell.slug(),
      name: cell.text(),
      group: cell.oneOf(SUBJECT_GROUPS),
      language_level: cell.optionalOneOf(LANGUAGE_LEVELS),
      ...provenance,
    }),
    key: ["slug"],
  });

  const qualifications = defineTable({
    name: "qualifications",
    patterns: ["qualifications/*.csv"],
    row: z.object({
      id: cell.uuid(),
      university_slug: cell.slug(),
      name: cell.text(),
      code: cell.optionalText(),
      faculty: cell.optionalText(),
      qualification_type: cell.oneOf(QUALIFICATION_TYPES),
      nqf_level: cell.integer(5, 8),
      // Empty: the university publishes no APS minimum for it (a witness must say so: `none` in its evidence).
      min_aps: cell.optionalInteger(0, 1000),
      // Empty: the university's main APS scheme; else a variant scheme of the same university (aps-schemes.csv).
      aps_scheme: cell.optionalSlug(),
      intake_year: cell.integer(2000, 2100),
      ...provenance,
    }),
    key: ["id"],
    references: [
      { column: "university_slug", table: "universities", targetColumn: "slug" },
      { column: "aps_scheme", table: "aps-schemes", targetColumn: "scheme" },
    ],
  });

  const witnesses = defineTable({
    name: "witnesses",
    patterns: ["witnesses/*.csv"],
    row: z.object({
      id: cell.slug(),
      kind: cell.oneOf(WITNESS_KINDS),
      title: cell.text(),
      publisher: cell.text(),
      // Witnesses of one lineage copy each other (or one origin): together they count as one witness.
      lineage: cell.text(),
      university_slug: cell.optionalSlug(),
      ...provenance,
    }),
    key: ["id"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  const evidence = defineTable({
    name: "evidence",
    patterns: ["evidence/*.csv"],
    row: z.object({
      qualification_id: cell.uuid(),
      witness_id: cell.slug(),
      intake_year: cell.optionalInteger(2000, 2100),
      name_as_written: cell.text(),
      min_aps: cell.apsStatement(),
      requirements: cell.requirementStatement(),
      ...provenance,
      note: cell.optionalText(),
    }),
    key: ["qualification_id", "witness_id", "intake_year"],
    references: [
      { column: "qualification_id", table: "qualifications", targetColumn: "id" },
      { column: "witness_id", table: "witnesses", targetColumn: "id" },
    ],
  });

  const highSchools = defineTable({
    name: "high-schools",
    patterns: ["high-schools.csv"],
    imported: true,
    whenEmpty:
      "import the DBE schools masterlist: `npm run import -- schools <files>` (https://www.education.gov.za/Programmes/EMIS/EMISDownloads.aspx); a fresh clone has it committed in sources/high-schools.csv",
    row: z
      .object({
        emis_number: cell.digits(6, 12),
        name: cell.text(),
        province_id: cell.slug(),
        district: cell.optionalText(),
        quintile: cell.optionalInteger(1, 5),
        sector: cell.oneOf(SCHOOL_SECTORS),
        phase: cell.oneOf(SCHOOL_PHASES),
        latitude: cell.optionalDecimal(-35, -22),
        longitude: cell.optionalDecimal(16, 33),
        ...provenance,
      })
      .refine((r) => (r.latitude === null) === (r.longitude === null), {
        path: ["longitude"],
        error: "both latitude and longitude, or neither",
      }),
    key: ["emis_number"],
    references: [{ column: "province_id", table: "provinces", targetColumn: "id" }],
  });

  const postalCodes = defineTable({
    name: "postal-codes",
    patterns: ["postal-codes.csv"],
    imported: true,
    whenEmpty:
      "import the SAPO postal code list: `npm run import -- postal-codes <file>` (https://www.postoffice.co.za/Questions/postalcode.html); a fresh clone has it committed in sources/postal-codes.csv",
    row: z
      .object({
        suburb: cell.text(),
        // Empty where SAPO gives no area (its placeholder "-" becomes null in the importer).
        area: cell.optionalText(),
        street_code: cell.optionalDigits(4),
        box_code: cell.optionalDigits(4),
        province_id: cell.optionalSlug(),
        ...provenance,
      })
      .refine((r) => r.street_code !== null || r.box_code !== null, {
        path: ["street_code"],
        error: "a street_code or a box_code (at least one of the two)",
      }),
    key: ["suburb", "area", "street_code", "box_code"],
    references: [{ column: "province_id", table: "provinces", targetColumn: "id" }],
  });

  const prospectuses = defineTable({
    name: "prospectuses",
    patterns: ["prospectuses.csv"],
    row: z
      .object({
        university_slug: cell.slug(),
        year: cell.integer(2000, 2100),
        // A university that publishes its prospectus in parts (one per faculty) has a row per part.
        part: cell.optionalSlug(),
        title: cell.optionalText(),
        ...provenance,
      })
      .refine((r) => (r.part === null) === (r.title === null), {
        path: ["title"],
        error: "a title exactly when part is set (e.g. part engineering, title Faculty of Engineering prospectus)",
      }),
    key: ["university_slug", "year", "part"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  return {
    provinces,
    universities,
    applicationCycles,
    universityFees,
    teachingLanguages,
    upstreamEditions,
    subjects,
    qualifications,
    witnesses,
    evidence,
    highSchools,
    postalCodes,
    nscResults: nscResultsTable(provenance),
    ...bursaryTables(today),
    prospectuses,
    ...apsTables(today),
  };
}

export type SourceTables = ReturnType<typeof sourceTables>;
