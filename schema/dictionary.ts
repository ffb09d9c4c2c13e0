// The data dictionary: every column of every bulk file (schema/bulk.ts) with its type, meaning, whether it can be
// null and why, and where it comes from. Types and nullability are read from the zod schemas; meanings are the
// schemas' own descriptions where they have one, else the words below. Every column has a meaning, and every
// nullable column the reason it can be null (test/node/dictionary.test.ts), so a field added without them fails.
// Served at /v1/bulk/dictionary.json and written to docs/data-dictionary.md (npm run docs:figures).
import type { z } from "zod";
import { BULK_FILES, columnsOf, type BulkFile, type Column } from "./bulk.ts";

/** Meanings by column name, for every file that has the column; `file:column` for one file's own. */
const MEANINGS: Record<string, string> = {
  id: "The record's id: the `{id}` of its detail path; stable across rebuilds.",
  slug: "The record's slug: lower-case words joined by hyphens; stable across rebuilds.",
  name: "The name, as its source writes it.",
  source_url: "Where the record's facts were read: the official page or document, or the public project that transcribed it.",
  verified_on: "The day the facts were last read at `source_url` (YYYY-MM-DD).",
  "universities:short_name": "The university's usual short name or acronym (UCT, Wits).",
  "universities:province_name": "The province of the university's main campus.",
  "universities:province_id": "That province's id (GET /v1/data/provinces).",
  "universities:type": "traditional, comprehensive or university of technology.",
  "universities:website": "The university's own website.",
  "universities:application_cycles":
    "JSON list: each intake's application window (`intake_year`, `open_date`, `close_date`, `applies_to`: which applicants or programmes the dates are for), with its `source_url` and `verified_on`.",
  "universities:fees": "JSON list: application fees (`intake_year`, `fee_type`, `applies_to`, `amount_zar`), with `source_url` and `verified_on`.",
  "qualifications:nqf_level": "The qualification's level on the National Qualifications Framework (5 to 8).",
  "qualifications:min_aps": "The minimum Admission Point Score, on the university's own scale (`aps_scheme`).",
  "qualifications:aps_scheme": "The APS scheme `min_aps` is on; the APS calculator scores with it.",
  "qualifications:aps_maximum": "The highest score `aps_scheme` can give.",
  "qualifications:university_slug": "The university (GET /v1/data/universities/{slug}).",
  "qualifications:code": "The university's own programme code.",
  "qualifications:qualification_type": "bachelor, diploma, higher certificate, advanced certificate (it decides which NSC pass is needed).",
  "qualifications:faculty": "The faculty or school that offers it, as the university names it.",
  "qualifications:intake_year": "The newest intake any witness of the record speaks for.",
  "qualifications:confidence":
    "How sure the record is: high = the university's own page or document for this intake; medium = a transcription of a named official document, or two independent witnesses; low = one third-party witness.",
  "qualifications:general_requirements":
    "JSON list: requirements not tied to one subject (`rule`: another official language or one more subject, with `min_level`, `min_percentage`, `alternative_group`, `route`).",
  "qualifications:sources":
    "JSON list: every witness of the record's facts, strongest first (`witness`, `title`, `kind`, `url`, `intake_year`, `verified_on`).",
  "qualification-requirements:subject.name": "The NSC subject's name.",
  "qualification-requirements:subject.slug": "The subject's slug (GET /v1/data/subjects).",
  "qualification-requirements:min_level": "The lowest NSC achievement level (1 to 7) accepted.",
  "qualification-requirements:min_percentage": "The lowest percentage accepted (the level's lower bound unless the university states a percentage).",
  "qualification-requirements:is_compulsory": "true: needed; false alone: recommended; alternatives share an `alternative_group`.",
  "qualification-requirements:alternative_group": "Requirements that share it are alternatives: one of them is needed.",
  "qualification-requirements:route":
    "The alternative whole set of requirements it belongs to; any one route (with the requirements of no route) suffices.",
  "subjects:group": "The subject's group in the NSC (language, mathematics, other).",
  "subjects:language_level": "For a language: HL (home language), FAL (first additional) or SAL (second additional).",
  "high-schools:emis_number": "The school's EMIS number (the DBE's national school number).",
  "high-schools:province": "The school's province.",
  "high-schools:quintile": "The school's poverty quintile (1 poorest to 5), which sets its funding and no-fee status.",
  "high-schools:nsc_pass_rate": "The pass rate of the latest year in `nsc_results`.",
  "high-schools:nsc_year": "That year.",
  "high-schools:district": "The education district the school belongs to.",
  "high-schools:latitude": "The school's position, in decimal degrees (WGS 84).",
  "high-schools:longitude": "The school's position, in decimal degrees (WGS 84).",
  "high-schools:sector": "public or independent.",
  "high-schools:phase": "secondary or combined (primary and secondary).",
  "high-schools:nsc_results": "JSON list: the school's NSC results by year, newest first (also nsc-results.csv, one row a year).",
  "nsc-results:year": "The year of the examinations.",
  "nsc-results:wrote": "Learners who wrote the NSC examinations.",
  "nsc-results:passed": "Learners who achieved the NSC.",
  "nsc-results:pass_rate": "100 × passed / wrote, one decimal.",
  "nsc-results:progressed": "Progressed learners (promoted to Grade 12 without meeting the Grade 11 requirements).",
  "bursaries:provider_type": "Who offers it: corporate, government, provincial, municipal, SETA, university or foundation.",
  "bursaries:study_levels": "JSON list of the study levels it funds.",
  "bursaries:expected_next_cycle.intake_year": "The intake of the cycle expected next.",
  "bursaries:expected_next_cycle.open_date": "The expected opening date.",
  "bursaries:expected_next_cycle.close_date": "The expected closing date.",
  "bursaries:provider": "The provider's name.",
  "bursaries:eligibility": "Who may apply, in the provider's terms, summarised in our own words.",
  "bursaries:application_url": "Where to apply.",
  "fields-of-study:description": "What the field covers.",
  "postal-codes:suburb": "The suburb or place, as the SAPO list writes it.",
  "postal-codes:street_code": "The code for street addresses.",
  "postal-codes:box_code": "The code for post-office boxes.",
  "postal-codes:province": "The province the area lies in.",
  "prospectuses:university_slug": "The university (GET /v1/data/universities/{slug}).",
  "prospectuses:year": "The intake year the prospectus is for.",
  "prospectuses:title": "The part's name, where a university publishes one prospectus per faculty.",
  "prospectuses:url": "Where the document opens (no token needed).",
  "provinces:code": "The province's official abbreviation (EC, GP, ...).",
};

/** Why a nullable column can be null, by `file:column` (or the column name for every file). */
const NULL_REASONS: Record<string, string> = {
  "universities:type": "Not verified for the university (today SMU, SPU and UMP, the three newest).",
  "qualifications:min_aps":
    "The university states no APS minimum for the programme: it admits on subject requirements, or on another score (an index with the NBT, an audition, a portfolio). A witness must say so; a minimum nobody read is never guessed.",
  "qualifications:code": "The university publishes no programme code for it, or none of its witnesses gives one.",
  "qualifications:faculty": "None of the programme's witnesses names its faculty.",
  "qualification-requirements:alternative_group": "The requirement is not one of a set of alternatives.",
  "qualification-requirements:route": "The requirement holds whatever the route (or the qualification has no alternative routes).",
  "subjects:language_level": "The subject is not a language.",
  "high-schools:quintile":
    "The DBE publishes no quintile for the school: independent schools have none, and some public schools' cells are empty in the masterlist.",
  "high-schools:nsc_pass_rate": "The NSC School Performance Report has no results for the school (it did not write in the years the report covers).",
  "high-schools:nsc_year": "As nsc_pass_rate.",
  "high-schools:district": "The masterlist names no district for the school.",
  "high-schools:latitude":
    "The masterlist gives no coordinates for the school, or ones that fall outside its province even after the importer's repairs (swapped or misplaced decimals).",
  "high-schools:longitude": "As latitude.",
  "nsc-results:progressed": "The report gives no progressed learners for that school and year.",
  "bursaries:opening_date": "The provider publishes a closing date only.",
  "bursaries:recurs": "Not known to recur: the provider does not say so, and no two published cycles fell on the same dates.",
  "bursaries:expected_next_cycle.intake_year": "The scheme is not known to recur (`recurs` is null), so no next cycle is projected.",
  "bursaries:expected_next_cycle.open_date": "As expected_next_cycle.intake_year; or the latest cycle has no opening date.",
  "bursaries:expected_next_cycle.close_date": "As expected_next_cycle.intake_year.",
  "bursaries:expected_next_cycle.expected": "As expected_next_cycle.intake_year.",
  "bursaries:expected_next_cycle.basis": "As expected_next_cycle.intake_year.",
  "bursaries:value_zar": "The provider publishes no amount.",
  "bursaries:requires.min_average": "The provider states no minimum average.",
  "bursaries:requires.household_income_max_zar": "The provider states no income limit.",
  "bursaries:requires.citizenship": "The provider states no citizenship rule.",
  "postal-codes:area": "The SAPO list names no town for the suburb (its placeholder `-`, or an empty cell).",
  "postal-codes:street_code": "The place has post-office boxes only.",
  "postal-codes:box_code": "The place has street delivery only.",
  "postal-codes:province":
    "The SAPO list has no province column; the importer derives it from the code's range, and a code outside the ranges (9000 to 9299, formerly South West Africa) gets none.",
  "prospectuses:title": "The document is the university's whole prospectus, not one faculty's part.",
};

/** Where each file's records come from; `file:column` where one column comes from elsewhere. */
const ORIGINS: Record<string, string> = {
  universities: "Curated from each university's own website (sources/universities.csv, application-cycles.csv, university-fees.csv).",
  qualifications:
    "The programme catalogue: the universities' official documents where we have them, transcriptions and public projects otherwise, combined by the evidence rules (README, The programme catalogue); sources/qualifications/, evidence/, witnesses/.",
  "qualifications:aps_scheme": "Each university's APS method as its admission documents state it (sources/aps-*.csv, docs/aps.md).",
  "qualifications:aps_maximum": "As aps_scheme.",
  "qualifications:confidence": "Derived by the evidence rules from the record's witnesses.",
  "qualification-requirements": "The programme catalogue's requirements (the `requirements` cells of its evidence).",
  subjects: "The DBE's list of NSC subjects (sources/subjects.csv).",
  "high-schools": "The DBE's EMIS masterlist, the nine provincial workbooks and the special-needs one (npm run import; sources/high-schools.csv).",
  "high-schools:nsc_pass_rate": "The DBE's NSC School Performance Report (sources/nsc-results.csv).",
  "high-schools:nsc_year": "As nsc_pass_rate.",
  "high-schools:nsc_results": "As nsc_pass_rate.",
  "nsc-results": "The DBE's NSC School Performance Report (sources/nsc-results.csv); the school's EMIS number from the masterlist.",
  bursaries:
    "Curated from each provider's own call or page, transcriptions where the provider's page could not be read (sources/bursaries.csv, bursary-cycles.csv).",
  "bursaries:expected_next_cycle.intake_year": "Projected by the build from the latest published cycle; never published by a provider.",
  "fields-of-study": "Our own vocabulary for the bursaries' fields (sources/fields-of-study.csv); `bursary_count` is counted by the build.",
  "postal-codes": "SAPO's postal code list (npm run import; sources/postal-codes.csv).",
  "postal-codes:province":
    "Derived by the importer from the postal code's range (the ranges by province as Wikipedia's list of South African postal codes gives them): a hint, not a fact, since a few codes cross a provincial border.",
  prospectuses: "Each university's own prospectus pages (sources/prospectuses.csv).",
  provinces: "The nine provinces (sources/provinces.csv).",
};

/** Where the dictionary is written as a page, relative to the repository's root. */
export const DICTIONARY_PAGE = "docs/data-dictionary.md";

type DictionaryColumn = {
  name: string;
  type: string;
  nullable: boolean;
  meaning: string;
  null_when: string | null;
  origin: string;
};

type DictionaryFile = { name: string; record: string; scope: string | null; origin: string; columns: DictionaryColumn[] };

export type Dictionary = { csv_rule: string; files: DictionaryFile[] };

const CSV_RULE =
  'A column per field, in the order of the NDJSON record; a nested object\'s fields are columns named parent.child (all empty when the object is null); a list is one cell holding its JSON text. A null is an empty cell and an empty text is written "". RFC 4180, CRLF line ends, UTF-8 without a byte-order mark. The NDJSON file holds each record exactly as the API serves it.';

function typeOf(schema: z.ZodType): string {
  const def = schema._zod.def as { type: string; entries?: Record<string, string>; format?: string; check?: string; values?: unknown[] };
  switch (def.type) {
    case "string": {
      if (def.format === "url") return "url";
      const checks = (def as { checks?: { _zod: { def: { pattern?: RegExp } } }[] }).checks ?? [];
      if (checks.some((c) => c._zod.def.pattern?.source.includes("\\d{4}-\\d{2}-\\d{2}"))) return "date (YYYY-MM-DD)";
      return "text";
    }
    case "number": {
      const checks = (def as { checks?: { _zod: { def: { format?: string } } }[] }).checks ?? [];
      return checks.some((c) => /int/.test(c._zod.def.format ?? "")) ? "integer" : "number";
    }
    case "boolean":
      return "boolean";
    case "literal":
      return `literal ${JSON.stringify(def.values?.[0])}`;
    case "enum":
      return `one of ${Object.values(def.entries ?? {}).join(", ")}`;
    case "array":
      return "list (JSON in CSV)";
    default:
      return def.type;
  }
}

const lookup = (table: Record<string, string>, file: string, column: string) => table[`${file}:${column}`] ?? table[column];

function columnEntry(file: BulkFile, column: Column): DictionaryColumn {
  const own = column.path.length > 1 ? column.name : (column.path[0] ?? column.name);
  const parentOrigin = column.path.length > 1 ? lookup(ORIGINS, file.name, `${column.path[0]}.${column.path[1]}`) : undefined;
  return {
    name: column.name,
    type: typeOf(column.schema),
    nullable: column.nullable,
    meaning: column.description ?? lookup(MEANINGS, file.name, own) ?? "",
    null_when: column.nullable ? (lookup(NULL_REASONS, file.name, column.name) ?? "") : null,
    origin: lookup(ORIGINS, file.name, column.name) ?? parentOrigin ?? ORIGINS[file.name] ?? "",
  };
}

export function dataDictionary(files: readonly BulkFile[] = BULK_FILES): Dictionary {
  return {
    csv_rule: CSV_RULE,
    files: files.map((file) => ({
      name: file.name,
      record: file.description,
      scope: file.scope,
      origin: ORIGINS[file.name] ?? "",
      columns: columnsOf(file.record).map((column) => columnEntry(file, column)),
    })),
  };
}

/** The dictionary as a Markdown page (docs/data-dictionary.md). */
export function dictionaryMarkdown(dictionary: Dictionary): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    "# Data dictionary",
    "",
    "<!-- Generated from the zod schemas by `npm run docs:figures` (schema/dictionary.ts); do not edit by hand. -->",
    "",
    'Every column of every bulk file (`GET /v1/bulk/<file>.csv` and `.ndjson`, README "Releases and bulk files"), with',
    "its type, its meaning, whether it can be null and why, and where it comes from. The same as JSON:",
    "`GET /v1/bulk/dictionary.json`.",
    "",
    `**The CSV rule.** ${dictionary.csv_rule}`,
  ];
  for (const file of dictionary.files) {
    lines.push(
      "",
      `## ${file.name}`,
      "",
      `One record: ${file.record}. Scope: ${file.scope ? `\`${file.scope}\`` : "any valid token"}. From: ${file.origin}`,
      "",
      "| column | type | null | meaning | null when | from |",
      "|---|---|---|---|---|---|",
    );
    for (const c of file.columns) {
      const from = c.origin === file.origin ? "" : c.origin;
      lines.push(
        `| \`${c.name}\` | ${cell(c.type)} | ${c.nullable ? "yes" : "no"} | ${cell(c.meaning)} | ${cell(c.null_when ?? "")} | ${cell(from)} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
