// The query parameters of every list endpoint, in one declarative table: for each parameter, the zod
// schema that checks and converts its value (the raw query-string text in, the parsed value out), what it
// does, an example, and how it matches the list's find index. The Worker parses requests with it
// (functions/query.ts), the build checks that every index has the columns it names
// (build/find-index.ts), the README lists it, and the OpenAPI document can list the parameters from it
// (z.toJSONSchema(schema, { io: "input" }) gives each one's string form). Pure: no Worker code here.
import { z } from "zod";
import type { Match, Point } from "../lib/find.ts";

import { isRealDate } from "../lib/dates.ts";
import { DATA_VERSION, RELEASE_ID } from "./releases.ts";
import { MAX_PER_PAGE, parsePageRequest } from "../lib/pagination.ts";
import { searchKey, searchWords } from "../lib/text.ts";
import {
  BURSARY_PROVIDER_TYPES,
  FIELDS_OF_STUDY,
  MAX_SLUG_LENGTH,
  QUALIFICATION_TYPES,
  SCHOOL_PHASES,
  SCHOOL_SECTORS,
  SLUG,
  STUDY_LEVELS,
  UNIVERSITY_TYPES,
} from "../lib/vocabulary.ts";

export type QueryParameter = {
  /** Raw query-string value in, parsed value out; its issues' messages are the 400's details. */
  schema: z.ZodType<unknown, string>;
  description: string;
  example: string;
  match: Match;
  /** Another parameter this one needs (radius_km needs near). */
  requires?: string;
};

const Q_MIN_LENGTH = 2;
const Q_MAX_LENGTH = 100;
export const DEFAULT_RADIUS_KM = 10;
const MAX_RADIUS_KM = 100;

/**
 * A schema from a converter that returns undefined for a value it does not accept, with the message.
 * `pattern`, when given, is the value's form as the OpenAPI document shows it (the converter decides).
 */
function parameter<T>(expected: string, convert: (value: string) => T | undefined, pattern?: RegExp): z.ZodType<T, string> {
  return (pattern ? z.string().regex(pattern, expected) : z.string()).transform((raw, ctx): T => {
    const converted = convert(raw);
    if (converted === undefined) {
      ctx.addIssue({ code: "custom", message: expected });
      return z.NEVER;
    }
    return converted;
  });
}

const integerIn = (min: number, max: number) =>
  parameter(
    `must be an integer from ${min} to ${max}`,
    (v) => (/^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : undefined),
    max < 10 ? new RegExp(`^[${min}-${max}]$`) : /^\d{4}$/,
  );

const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values, { error: `must be one of: ${values.join(", ")}` });

const slug = parameter(
  `must be a slug (lower-case letters and digits joined by single hyphens, at most ${MAX_SLUG_LENGTH} characters)`,
  (v) => (v.length <= MAX_SLUG_LENGTH && SLUG.test(v) ? v : undefined),
  SLUG,
);

/** Free text compared folded (case and accents ignored): district, faculty. */
const foldedText = parameter("must be a text of 1 to 100 characters with a letter or digit", (v) => {
  const key = searchKey(v);
  return [...v.trim()].length <= 100 && key !== "" ? key : undefined;
});

const DECIMAL = /^-?\d{1,3}(?:\.\d{1,12})?$/;
const PROVINCE = /^[A-Za-z]+(?:-[A-Za-z]+)*$/;

const pageParameter = (name: "page" | "per_page"): QueryParameter => ({
  schema: parameter(
    name === "page" ? "must be a positive integer" : `must be an integer from 1 to ${MAX_PER_PAGE}`,
    (v) => {
      const parsed = name === "page" ? parsePageRequest(v, null) : parsePageRequest(null, v);
      return Array.isArray(parsed) ? undefined : parsed[name];
    },
    name === "page" ? /^[1-9]\d{0,8}$/ : /^[1-9]\d{0,2}$/,
  ),
  description:
    name === "page"
      ? "Page number, from 1 (default 1). A page past the end answers `data: []` with the real total."
      : `Records per page, 1 to ${MAX_PER_PAGE} (default 20).`,
  example: name === "page" ? "2" : "50",
  match: { kind: "page" },
});

const PAGINATION = { page: pageParameter("page"), per_page: pageParameter("per_page") };

function search(what: string, columns: string[] = ["search"]): QueryParameter {
  return {
    schema: parameter(`must be ${Q_MIN_LENGTH} to ${Q_MAX_LENGTH} characters with at least one letter or digit`, (v) => {
      const length = [...v.trim()].length;
      const words = searchWords(v);
      return length >= Q_MIN_LENGTH && length <= Q_MAX_LENGTH && words.length > 0 ? words : undefined;
    }),
    description:
      `Name search: every word of the query must start a word of ${what} (case and accents ignored: hoerskool finds HOËRSKOOL). ` +
      "Ordered: exact name first, then names that start with the query, then the other matches, each in the list's usual order.",
    example: "",
    match: { kind: "search", columns },
  };
}

function province(column = "province_id"): QueryParameter {
  return {
    schema: parameter("must be a province id (e.g. gauteng) or code (e.g. GP)", (v) => (PROVINCE.test(v) ? v.toLowerCase() : undefined), PROVINCE),
    description: "Province id or code, as in /v1/data/provinces (`gauteng` or `GP`; case ignored).",
    example: "gauteng",
    match: { kind: "province", column },
  };
}

const withExample = (p: QueryParameter, example: string): QueryParameter => ({ ...p, example });

/** The parameters of each list endpoint, by the resource name of its path (/v1/data/<resource>). */
export const LIST_QUERY_PARAMETERS = {
  universities: {
    ...PAGINATION,
    province: province(),
    type: {
      schema: oneOf(UNIVERSITY_TYPES),
      description: `University type: ${UNIVERSITY_TYPES.join(", ")}.`,
      example: "university-of-technology",
      match: { kind: "equals", column: "type" },
    },
    q: withExample(search("the university's name or short name", ["search", "search_other"]), "witwatersrand"),
  },
  qualifications: {
    ...PAGINATION,
    university_slug: {
      schema: slug,
      description: "Only this university's qualifications (a slug from /v1/data/universities).",
      example: "university-of-pretoria",
      match: { kind: "equals", column: "university_slug" },
    },
    qualification_type: {
      schema: oneOf(QUALIFICATION_TYPES),
      description: `Qualification type: ${QUALIFICATION_TYPES.join(", ")}.`,
      example: "bachelor",
      match: { kind: "equals", column: "qualification_type" },
    },
    faculty: {
      schema: foldedText,
      description: "Faculty, the whole name as the records give it (case and accents ignored).",
      example: "Health Sciences",
      match: { kind: "folded", column: "faculty" },
    },
    nqf_level: {
      schema: integerIn(5, 8),
      description: "NQF level, 5 to 8.",
      example: "7",
      match: { kind: "equals", column: "nqf_level" },
    },
    intake_year: {
      schema: integerIn(2000, 2100),
      description: "Intake year the entry requirements are for.",
      example: "2027",
      match: { kind: "equals", column: "intake_year" },
    },
    subject: {
      schema: slug,
      description:
        "Only qualifications with a subject requirement on this subject (a slug from /v1/data/subjects), compulsory or one of a group of alternatives.",
      example: "mathematics",
      match: { kind: "includes", column: "subjects" },
    },
    q: withExample(search("the qualification's name"), "engineering"),
  },
  "high-schools": {
    ...PAGINATION,
    province: province(),
    district: {
      schema: foldedText,
      description: "Education district, the whole name as the detail records give it (case and accents ignored).",
      example: "TSHWANE SOUTH",
      match: { kind: "folded", column: "district" },
    },
    quintile: {
      schema: integerIn(1, 5),
      description: "Quintile, 1 (poorest) to 5.",
      example: "5",
      match: { kind: "equals", column: "quintile" },
    },
    sector: {
      schema: oneOf(SCHOOL_SECTORS),
      description: `Sector: ${SCHOOL_SECTORS.join(", ")}.`,
      example: "public",
      match: { kind: "equals", column: "sector" },
    },
    phase: {
      schema: oneOf(SCHOOL_PHASES),
      description: `Phase: ${SCHOOL_PHASES.join(", ")}.`,
      example: "secondary",
      match: { kind: "equals", column: "phase" },
    },
    emis_number: {
      schema: parameter("must be an EMIS number: 6 to 12 digits", (v) => (/^\d{6,12}$/.test(v) ? v : undefined), /^\d{6,12}$/),
      description: "The school with this EMIS number (all its digits, leading zeros kept).",
      example: "700231316",
      match: { kind: "equals", column: "emis_number" },
    },
    q: withExample(search("the school's name or its EMIS number", ["search", "emis_number"]), "pretoria boys"),
    near: {
      schema: parameter("must be a latitude and a longitude in decimal degrees, separated by a comma (e.g. -25.7479,28.2293)", (v) => {
        const m = /^\s*([^,\s]+)\s*,\s*([^,\s]+)\s*$/.exec(v);
        if (!m?.[1] || !m[2] || !DECIMAL.test(m[1]) || !DECIMAL.test(m[2])) return undefined;
        const point: Point = { latitude: Number(m[1]), longitude: Number(m[2]) };
        return Math.abs(point.latitude) <= 90 && Math.abs(point.longitude) <= 180 ? point : undefined;
      }),
      description:
        `Schools within radius_km of this point (latitude,longitude in decimal degrees), nearest first, each list item with distance_km ` +
        "(great-circle, 3 decimals). Schools without coordinates are left out.",
      example: "-25.7479,28.2293",
      match: { kind: "near", latitude: "latitude", longitude: "longitude" },
    },
    radius_km: {
      schema: parameter(
        `must be a number of km greater than 0 and at most ${MAX_RADIUS_KM}`,
        (v) => (/^\d{1,3}(?:\.\d{1,6})?$/.test(v) && Number(v) > 0 && Number(v) <= MAX_RADIUS_KM ? Number(v) : undefined),
        /^\d{1,3}(?:\.\d{1,6})?$/,
      ),
      description: `Radius of near in km, greater than 0 and at most ${MAX_RADIUS_KM} (default ${DEFAULT_RADIUS_KM}); only with near.`,
      example: "5",
      match: { kind: "radius" },
      requires: "near",
    },
  },
  bursaries: {
    ...PAGINATION,
    field: {
      schema: oneOf(FIELDS_OF_STUDY),
      description:
        "Field of study, a slug of /v1/data/fields-of-study: the bursaries classified under it and those open to all fields. " +
        "`all-fields` lists only the bursaries open to all fields.",
      example: "engineering",
      match: { kind: "includes", column: "fields" },
    },
    study_level: {
      schema: oneOf(STUDY_LEVELS),
      description: `Level of study the bursary funds: ${STUDY_LEVELS.join(", ")}.`,
      example: "undergraduate",
      match: { kind: "includes", column: "study_levels" },
    },
    provider_type: {
      schema: oneOf(BURSARY_PROVIDER_TYPES),
      description: `Provider type: ${BURSARY_PROVIDER_TYPES.join(", ")}.`,
      example: "corporate",
      match: { kind: "equals", column: "provider_type" },
    },
    open_on: {
      schema: parameter("must be a real date written YYYY-MM-DD", (v) => (isRealDate(v) ? v : undefined), /^\d{4}-\d{2}-\d{2}$/),
      description:
        "Accepting applications on this date: a published cycle opens on or before it (or publishes no opening date) and closes on or after it. " +
        "Expected cycles (`expected_next_cycle`) do not count.",
      example: "2026-08-01",
      match: { kind: "open-on", column: "cycles" },
    },
    q: withExample(search("the bursary's name"), "funza lushaka"),
  },
  "postal-codes": {
    ...PAGINATION,
    code: {
      schema: parameter("must be a postal code: 4 digits", (v) => (/^\d{4}$/.test(v) ? v : undefined), /^\d{4}$/),
      description: "A 4-digit code: records whose street code or box code it is.",
      example: "0083",
      match: { kind: "either", columns: ["street_code", "box_code"] },
    },
    province: province(),
    q: withExample(search("the suburb or the area", ["search", "search_other"]), "hatfield"),
  },
  prospectuses: {
    ...PAGINATION,
    university_slug: {
      schema: slug,
      description: "Only this university's prospectuses.",
      example: "mangosuthu-university-of-technology",
      match: { kind: "equals", column: "university_slug" },
    },
    year: {
      schema: integerIn(2000, 2100),
      description: "Only prospectuses for this year.",
      example: "2027",
      match: { kind: "equals", column: "year" },
    },
  },
  // Unpaginated lists take no parameters: anything sent is an unknown parameter.
  subjects: {},
  "fields-of-study": {},
  provinces: {},
} as const satisfies Record<string, Record<string, QueryParameter>>;

/** The queries of GET /v1/releases and GET /v1/changes (functions/sync.ts); `since` is required there. */
export const SYNC_QUERY_PARAMETERS = {
  releases: { ...PAGINATION },
  changes: {
    ...PAGINATION,
    since: {
      schema: parameter("must be a release id (YYYY-MM-DD or YYYY-MM-DD.N) or a data version (16 hexadecimal digits)", (v) =>
        RELEASE_ID.test(v) || DATA_VERSION.test(v) ? v : undefined,
      ),
      description:
        "Required. A release id (GET /v1/releases) or a data version (the X-Data-Version header of an answer you kept): the changes after it.",
      example: "2026-11-28",
      match: { kind: "equals", column: "since" },
    },
  },
} satisfies Record<string, Record<string, QueryParameter>>;

export type ListResource = keyof typeof LIST_QUERY_PARAMETERS;

/** A list's parameters as [name, definition] pairs, in the table's order. */
export function listParameters(resource: ListResource): [string, QueryParameter][] {
  return Object.entries(LIST_QUERY_PARAMETERS[resource] as Record<string, QueryParameter>);
}

/** The index columns a list's parameters read: the build checks its index has every one. */
export function columnsRead(parameters: Readonly<Record<string, QueryParameter>>): string[] {
  const columns = new Set<string>();
  for (const { match } of Object.values(parameters)) {
    if ("column" in match) columns.add(match.column);
    if ("columns" in match) for (const c of match.columns) columns.add(c);
    if (match.kind === "near") columns.add(match.latitude).add(match.longitude);
  }
  return [...columns];
}
