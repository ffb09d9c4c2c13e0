// Bulk files: every record of a resource in one download, as NDJSON (one detail record a line, exactly as the
// detail endpoint serves it) and as CSV (the same records flattened by one rule, below). One entry per file, made
// from the resource registry, plus the two nested lists a partner most often wants as tables of their own. The
// build writes the files (build/bulk.ts), the Worker serves them (functions/bulk.ts), the data dictionary
// (schema/dictionary.ts) documents their columns, all from the zod schemas here.
//
// The CSV rule: a column per scalar field, in the schema's order; a nested object's fields become columns named
// `parent.child` (all empty when the object is null); a list stays one cell holding its JSON text. A null is an
// empty cell; true and false are written as such; text is quoted where CSV needs it (RFC 4180, CRLF line ends,
// UTF-8 without a byte-order mark). NDJSON keeps every distinction CSV cannot (null against "", a list's items).
import { z } from "zod";
import { ENDPOINT_SCOPES, type RequiredScope } from "../domain/scopes.ts";
import * as api from "./api.ts";
import { RESOURCES, type ResourceName } from "./resources.ts";

export type BulkFile = {
  /** The file's name without extension: /v1/bulk/<name>.csv and .ndjson. */
  name: string;
  scope: RequiredScope;
  /** A record as served (a line of the NDJSON file). */
  record: z.ZodObject;
  /** The resource it is the records of, or the resource whose records it unnests. */
  resource: ResourceName;
  /** What one record is, for the dictionary. */
  description: string;
};

/** A qualification's subject requirement, with the qualification it belongs to. */
const QualificationRequirementRow = z.object({
  qualification_id: z.string().describe("The qualification (GET /v1/data/qualifications/{id})."),
  ...api.QualificationRequirement.shape,
});

/** One year of one school's NSC results, with the school. */
const NscResultRow = z.object({
  high_school_id: z.string().describe("The school (GET /v1/data/high-schools/{id})."),
  emis_number: z.string().describe("The school's EMIS number (the DBE's national school number)."),
  ...api.NscResult.shape,
});

function resourceFile(name: ResourceName, description: string): BulkFile {
  const definition = RESOURCES[name] as (typeof RESOURCES)[ResourceName] & { detail?: { record: z.ZodObject } };
  const record = (definition.detail?.record ?? definition.list.item) as z.ZodObject;
  return { name, scope: definition.scope, record, resource: name, description };
}

export const BULK_FILES: readonly BulkFile[] = [
  resourceFile("universities", "a university, as GET /v1/data/universities/{slug} serves it"),
  resourceFile("qualifications", "a qualification, as GET /v1/data/qualifications/{id} serves it"),
  {
    name: "qualification-requirements",
    scope: ENDPOINT_SCOPES.qualificationRequirements,
    record: QualificationRequirementRow,
    resource: "qualifications",
    description: "one subject requirement of one qualification, as GET /v1/data/qualifications/{id}/requirements lists it, in that order",
  },
  resourceFile("subjects", "an NSC subject, as GET /v1/data/subjects lists it"),
  resourceFile("high-schools", "a school, as GET /v1/data/high-schools/{id} serves it"),
  {
    name: "nsc-results",
    scope: ENDPOINT_SCOPES.highSchools,
    record: NscResultRow,
    resource: "high-schools",
    description: "one year of one school's NSC results (a school's `nsc_results`), newest year first within a school",
  },
  resourceFile("bursaries", "a bursary, as GET /v1/data/bursaries/{slug} serves it"),
  resourceFile("fields-of-study", "a field of study, as GET /v1/data/fields-of-study lists it"),
  resourceFile("postal-codes", "a suburb's codes, as GET /v1/data/postal-codes/{id} serves it"),
  resourceFile("prospectuses", "a prospectus document, as GET /v1/data/prospectuses lists it"),
  resourceFile("provinces", "a province, as GET /v1/data/provinces lists it"),
];

export const BULK_FORMATS = ["csv", "ndjson"] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

export function bulkFileNamed(name: string): BulkFile | undefined {
  return BULK_FILES.find((f) => f.name === name);
}

/** The schema under nullable / optional / describe wrappers, and whether it may be null. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; nullable: boolean; optional: boolean } {
  let inner = schema;
  let nullable = false;
  let optional = false;
  for (;;) {
    const def = inner._zod.def as { type: string; innerType?: z.ZodType };
    if (def.type === "nullable" && def.innerType) nullable = true;
    else if (def.type === "optional" && def.innerType) optional = true;
    else break;
    inner = def.innerType;
  }
  return { inner, nullable, optional };
}

/** A CSV column: its name (`parent.child` for a nested object's field), the path to its value, and its schema. */
export type Column = { name: string; path: string[]; schema: z.ZodType; description: string | undefined; nullable: boolean };

/** The CSV columns of a record schema, by the rule at the top of this file. */
export function columnsOf(record: z.ZodObject, prefix: string[] = [], parentNullable = false): Column[] {
  const columns: Column[] = [];
  for (const [field, schema] of Object.entries(record.shape) as [string, z.ZodType][]) {
    const { inner, nullable, optional } = unwrap(schema);
    if (optional) continue; // only on list items with a query (`distance_km` with `near`), never in a bulk record
    const path = [...prefix, field];
    if (inner._zod.def.type === "object") {
      columns.push(...columnsOf(inner as z.ZodObject, path, parentNullable || nullable));
      continue;
    }
    columns.push({
      name: path.join("."),
      path,
      schema: inner,
      description: schema.description ?? inner.description,
      nullable: nullable || parentNullable,
    });
  }
  return columns;
}

const NEEDS_QUOTES = /[",\r\n]/;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text === "" || NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const step of path) {
    if (value === null || typeof value !== "object") return null;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** The CSV header line, with its line end. */
export function csvHeader(columns: readonly Column[]): string {
  return `${columns.map((c) => csvCell(c.name)).join(",")}\r\n`;
}

/** One record as a CSV line, with its line end. An empty string is written `""`, so that it differs from a null. */
export function csvLine(columns: readonly Column[], record: unknown): string {
  // A loop, not map and join: a line per record of the national tables, where the arrays cost more than the cells.
  let line = "";
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ",";
    line += csvCell(valueAt(record, (columns[i] as Column).path));
  }
  return `${line}\r\n`;
}

/** The file name a download is saved under: the file, the release (or the data version) and the format. */
export function bulkFileName(name: string, release: string, format: BulkFormat): string {
  return `sa-edu-${name}-${release}.${format}`;
}
