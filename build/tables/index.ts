// The source tables, one zod row schema each. sources/README.md documents the same columns for people.
import { CONFIDENCE_LEVELS } from "../../domain/aps/scheme.ts";
import { z } from "zod";
import { defineTable, type TableDefinition } from "./define.ts";
import * as cell from "./cells.ts";
import { apsTables } from "./aps.ts";
import { nscResultsTable } from "./nsc.ts";

export const QUALIFICATION_TYPES = [
  "bachelor",
  "diploma",
  "higher-certificate",
  "advanced-certificate",
  "extended-bachelor",
  "extended-diploma",
] as const;

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
      type: cell.optionalOneOf(["traditional", "comprehensive", "university-of-technology"]),
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
      fee_type: cell.oneOf(["application"]),
      applies_to: cell.text(),
      amount_zar: cell.decimal(0, 100_000),
      ...provenance,
    }),
    key: ["university_slug", "intake_year", "fee_type", "applies_to"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  const subjects = defineTable({
    name: "subjects",
    patterns: ["subjects.csv"],
    row: z.object({
      slug: cell.slug(),
      name: cell.text(),
      group: cell.oneOf(["official-language", "non-official-language", "mathematics", "life-orientation", "elective"]),
      language_level: cell.optionalOneOf(["HL", "FAL", "SAL"]),
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
      faculty: cell.optionalText(),
      qualification_type: cell.oneOf(QUALIFICATION_TYPES),
      nqf_level: cell.integer(5, 8),
      min_aps: cell.integer(0, 1000),
      intake_year: cell.integer(2000, 2100),
      confidence: cell.oneOf(CONFIDENCE_LEVELS),
      ...provenance,
    }),
    key: ["id"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  const qualificationRequirements = defineTable({
    name: "qualification-requirements",
    patterns: ["qualification-requirements/*.csv"],
    row: z
      .object({
        qualification_id: cell.uuid(),
        subject_slug: cell.slug(),
        min_level: cell.optionalInteger(1, 7),
        min_percentage: cell.optionalInteger(0, 100),
        is_compulsory: cell.boolean(),
        alternative_group: cell.optionalSlug(),
        ...provenance,
      })
      .refine((r) => r.min_level !== null || r.min_percentage !== null, {
        path: ["min_level"],
        error: "min_level or min_percentage (at least one of the two)",
      })
      .refine((r) => r.alternative_group === null || !r.is_compulsory, {
        path: ["is_compulsory"],
        error: "false for a row in an alternative_group (the group is required; each member is one way to meet it)",
      }),
    key: ["qualification_id", "subject_slug", "alternative_group"],
    references: [
      { column: "qualification_id", table: "qualifications", targetColumn: "id" },
      { column: "subject_slug", table: "subjects", targetColumn: "slug" },
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
        sector: cell.oneOf(["public", "independent"]),
        phase: cell.oneOf(["secondary", "combined"]),
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
        area: cell.text(),
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

  const bursaries = defineTable({
    name: "bursaries",
    patterns: ["bursaries.csv"],
    row: z.object({
      slug: cell.slug(),
      name: cell.text(),
      provider: cell.text(),
      provider_type: cell.oneOf(["government", "provincial", "seta", "corporate", "foundation", "university"]),
      closing_date: cell.date(),
      fields: cell.list(),
      eligibility: cell.text(),
      application_url: cell.httpsUrl(),
      ...provenance,
    }),
    key: ["slug"],
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
    subjects,
    qualifications,
    qualificationRequirements,
    highSchools,
    postalCodes,
    nscResults: nscResultsTable(provenance),
    bursaries,
    prospectuses,
    ...apsTables(today),
  };
}

export type SourceTables = ReturnType<typeof sourceTables>;
export type AnyTable = TableDefinition;
