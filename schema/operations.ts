// The API's operations: ONE table, one entry per method and path. The OpenAPI document (schema/openapi.ts,
// served at /v1/openapi.json), the reference page (/docs) and the typed client (client/) are all generated
// from this table and the zod schemas at every build, so an operation added later is one entry here (and
// its route in functions/route.ts; test/node/openapi.test.ts checks that the two agree).
//
// An entry says: method, path, summary, the scope from domain/scopes.ts, the path and query parameters and
// the request body as zod schemas, the 200 body's schema, the error codes it can answer besides those of
// authentication (each error status gets the error body with exactly its codes), and where its example
// comes from in the real build.
import { z } from "zod";
import {
  answerApsRequest,
  answerCompareRequest,
  ApsRequestSchema,
  ApsResultSchema,
  CompareRequestSchema,
  CompareResultSchema,
  type ApsIndex,
} from "../domain/aps/request.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { answerTargetsRequest, TargetsRequestSchema, TargetsResultSchema } from "../domain/aps/targets.ts";
import { IdParseRequestSchema, ParsedIdSchema, parseIdNumber } from "../domain/id-number.ts";
import { ENDPOINT_SCOPES, type RequiredScope } from "../domain/scopes.ts";
import { DEFAULT_PAGE, DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../lib/pagination.ts";
import { servedProspectus } from "../lib/prospectuses.ts";
import * as api from "./api.ts";
import { LIST_QUERY_PARAMETERS, listParameters, type ListResource } from "./query.ts";
import type { ErrorCode } from "./errors.ts";
import { MAX_SLUG_LENGTH, OPAQUE_ID, SLUG, UUID } from "../lib/vocabulary.ts";
import { EXAMPLE_ORIGIN } from "../lib/public-documents.ts";

/** What an example may read from the build it is generated with (build/public-documents.ts provides it). */
export interface ExampleSource {
  /** The first `count` records of a paginated list, as stored (in list order), and the list's total. */
  listItems(resource: string, count: number): { items: Record<string, unknown>[]; total: number };
  /** The whole body {data, meta} of an unpaginated list. */
  wholeList(resource: string): unknown;
  /** The body {data} of one detail record, or null. */
  detail(resource: string, key: string): unknown;
  /** The first qualification (in list order) that has requirements, with the body of its requirements. */
  requirements(): { id: string; body: unknown } | null;
  /** A university's APS document, as the calculator reads it. */
  apsDocument(universitySlug: string): ApsUniversityDocument | null;
  /** The universities and subjects the comparison knows. */
  apsIndex(): ApsIndex | null;
  /** The build's reference date, YYYY-MM-DD. */
  today: string;
}

/** One request and the 200 body the API answers to it. */
export type Example = {
  summary: string;
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  response: unknown;
};

type Tag = { name: string; description: string };

export type Operation = {
  operationId: string;
  method: "get" | "post";
  /** OpenAPI path template: `{name}` for each path parameter. */
  path: string;
  summary: string;
  description: string;
  tag: Tag;
  /** The scope the token needs (domain/scopes.ts); null: any valid token. */
  scope: RequiredScope;
  /** One field per `{name}` in `path`. */
  pathParameters?: z.ZodObject;
  /** Query parameters. Every list takes listQuery(resource): pagination plus that list's filters. */
  query?: z.ZodObject;
  /** The JSON request body, shown under `name` in components/schemas. */
  body?: { name: string; schema: z.ZodType };
  /** The 200 body, shown under `name` in components/schemas. */
  response: { name: string; schema: z.ZodType; description: string };
  /** Error codes beyond AUTH_ERROR_STATUSES'; the document gives each status the error body with exactly its codes. */
  errors: ErrorCode[];
  /** Requests and their 200 answers, from the real build; [] when the build has nothing to show (an empty table). */
  examples: (source: ExampleSource) => Example[] | Promise<Example[]>;
};

/** Statuses every operation that needs a token can answer; each with all of its codes in schema/errors.ts. */
export const AUTH_ERROR_STATUSES = [401, 403, 429, 500] as const;

/** Records shown under their own name in components/schemas (anything not named here is written inline). */
export const NAMED_SCHEMAS: Record<string, z.ZodType> = {
  UniversityListItem: api.UniversityListItem,
  University: api.University,
  QualificationListItem: api.QualificationListItem,
  Qualification: api.Qualification,
  QualificationRequirement: api.QualificationRequirement,
  Subject: api.Subject,
  HighSchoolListItem: api.HighSchoolListItem,
  HighSchool: api.HighSchool,
  BursaryListItem: api.BursaryListItem,
  Bursary: api.Bursary,
  BursaryCycle: api.BursaryCycle,
  ExpectedBursaryCycle: api.ExpectedBursaryCycle,
  BursaryRequirements: api.BursaryRequirements,
  FieldOfStudy: api.FieldOfStudy,
  PostalCodeListItem: api.PostalCodeListItem,
  PostalCode: api.PostalCode,
  Prospectus: api.Prospectus,
  Province: api.Province,
  ApsResult: ApsResultSchema,
  ParsedId: ParsedIdSchema,
  PageMeta: api.PageMeta,
  TotalMeta: api.TotalMeta,
};

const TAGS = {
  universities: { name: "Universities", description: "The 26 public universities, with their application cycles and application fees." },
  qualifications: {
    name: "Qualifications",
    description: "Undergraduate qualifications with their minimum APS, and the NSC subject requirements of each.",
  },
  subjects: { name: "Subjects", description: "The NSC subjects; their slugs are what the APS calculator takes." },
  aps: { name: "APS calculator", description: "A university's Admission Point Score from NSC results, on that university's own scheme." },
  highSchools: { name: "High schools", description: "Secondary and combined schools that write the NSC, from the DBE masterlist." },
  bursaries: {
    name: "Bursaries",
    description:
      "Bursaries and scholarships with their application cycles, what they cover and who they are for, and the fields of study they are classified by.",
  },
  postalCodes: { name: "Postal codes", description: "Suburbs and areas with their street and box codes (SAPO)." },
  idNumbers: { name: "ID numbers", description: "South African ID numbers: date of birth, gender, citizenship and checksum." },
  prospectuses: { name: "Prospectuses", description: "Each university's prospectus documents." },
  provinces: { name: "Provinces", description: "The nine provinces." },
} satisfies Record<string, Tag>;

// ---------------------------------------------------------------------------------------------------------
// Query parameters

/** Pagination, the same on every paginated list (lib/pagination.ts holds the rules the Worker applies). */
const PAGINATION_QUERY = z.object({
  page: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_PAGE)
    .describe("The page, from 1, written plainly (`01` is refused). A page past the end answers 200 with no records."),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE).describe(`Records per page, 1 to ${MAX_PER_PAGE}.`),
});

/**
 * THE HOOK FOR LIST FILTERS: each paginated list's own query parameters (filters, search...) by resource, as
 * zod fields. The shared filter table plugs in here (e.g. `export const LIST_FILTERS = FILTERS_BY_RESOURCE`),
 * and every list operation's query is pagination plus these, so each filter appears in the document, on the
 * reference page and in the client with no other edit. Add the filters' error codes (invalid_parameter,
 * unknown_parameter) to LIST_QUERY_ERRORS at the same time.
 */
const LIST_FILTERS: Partial<Record<string, z.ZodRawShape>> = Object.fromEntries(
  Object.keys(LIST_QUERY_PARAMETERS).map((resource) => [
    resource,
    Object.fromEntries(
      listParameters(resource as ListResource)
        .filter(([name]) => name !== "page" && name !== "per_page")
        .map(([name, parameter]) => [name, parameter.schema.optional().describe(parameter.description)]),
    ),
  ]),
);
const LIST_QUERY_ERRORS: ErrorCode[] = ["invalid_pagination", "invalid_parameter", "unknown_parameter"];

function listQuery(resource: string): z.ZodObject {
  return PAGINATION_QUERY.extend(LIST_FILTERS[resource] ?? {});
}

// ---------------------------------------------------------------------------------------------------------
// Path parameters

const slugParameter = (what: string) => z.object({ slug: z.string().max(MAX_SLUG_LENGTH).regex(SLUG).describe(`The ${what}'s slug.`) });
const uuidParameter = (what: string) => z.object({ id: z.string().regex(UUID).describe(`The ${what}'s id (a UUID).`) });
const opaqueParameter = (what: string) =>
  z.object({ id: z.string().regex(OPAQUE_ID).describe(`The ${what}'s id (opaque; stable across rebuilds).`) });

// ---------------------------------------------------------------------------------------------------------
// Kinds of operation

/** Records on an example list page: enough to show the shape, few enough to read. */
const EXAMPLE_PER_PAGE = 2;

/** Prospectus URLs in examples use the production asset base (wrangler.jsonc env.live ASSET_URL). */
export const EXAMPLE_ASSET_URL = `${EXAMPLE_ORIGIN}/assets`;

type ListSpec = {
  resource: string;
  operationId: string;
  summary: string;
  description: string;
  tag: Tag;
  scope: RequiredScope;
  item: z.ZodType;
  name: string;
  /** A stored list record as served (prospectuses get their URL). */
  served?: (record: Record<string, unknown>) => unknown;
};

function paginatedList(spec: ListSpec): Operation {
  const { resource, item, name, served = (r) => r, ...rest } = spec;
  return {
    ...rest,
    method: "get",
    path: `/v1/data/${resource}`,
    query: listQuery(resource),
    response: { name, schema: api.pageOf(item), description: "A page of the list, in the list's order, with the total." },
    errors: LIST_QUERY_ERRORS,
    examples: (source) => {
      const { items, total } = source.listItems(resource, EXAMPLE_PER_PAGE);
      const response = { data: items.map(served), meta: { total, page: 1, per_page: EXAMPLE_PER_PAGE } };
      return [{ summary: `The first ${EXAMPLE_PER_PAGE} records`, query: { per_page: EXAMPLE_PER_PAGE }, response }];
    },
  };
}

function wholeList(spec: Omit<ListSpec, "served">): Operation {
  const { resource, item, name, ...rest } = spec;
  return {
    ...rest,
    method: "get",
    path: `/v1/data/${resource}`,
    response: { name, schema: api.listOf(item), description: "The whole list, with its total." },
    // It takes no parameters: any sent is a typo the client should hear about.
    errors: ["unknown_parameter"],
    examples: (source) => [{ summary: "The whole list", response: source.wholeList(resource) }],
  };
}

type DetailSpec = {
  resource: string;
  /** The path parameter, and the field of a list record that holds its value. */
  key: "slug" | "id";
  parameter: z.ZodObject;
  operationId: string;
  summary: string;
  description: string;
  tag: Tag;
  scope: RequiredScope;
  record: z.ZodType;
  name: string;
};

function detail(spec: DetailSpec): Operation {
  const { resource, key, parameter, record, name, ...rest } = spec;
  return {
    ...rest,
    method: "get",
    path: `/v1/data/${resource}/{${key}}`,
    pathParameters: parameter,
    response: { name, schema: api.recordOf(record), description: "The record." },
    errors: ["not_found"],
    examples: (source) => {
      const first = source.listItems(resource, 1).items[0];
      const value = first?.[key];
      if (typeof value !== "string") return [];
      return [{ summary: "The first record of the list", path: { [key]: value }, response: source.detail(resource, value) }];
    },
  };
}

/** Errors every JSON POST can answer before its own checks (functions/compute.ts readJsonBody). */
const JSON_BODY_ERRORS: ErrorCode[] = ["malformed_json", "payload_too_large", "unsupported_media_type"];

/** A learner's final NSC results, for the APS example. */
const EXAMPLE_MARKS = [
  { subject_slug: "english-home-language", percentage: 72 },
  { subject_slug: "afrikaans-first-additional-language", percentage: 65 },
  { subject_slug: "mathematics", percentage: 60 },
  { subject_slug: "physical-sciences", percentage: 60 },
  { subject_slug: "life-sciences", percentage: 48 },
  { subject_slug: "geography", percentage: 81 },
  { subject_slug: "life-orientation", percentage: 85 },
];

// ---------------------------------------------------------------------------------------------------------
// The table

export const OPERATIONS: Operation[] = [
  paginatedList({
    resource: "universities",
    operationId: "listUniversities",
    summary: "List universities",
    description: "The 26 public universities, ordered by name.",
    tag: TAGS.universities,
    scope: ENDPOINT_SCOPES.universities,
    item: api.UniversityListItem,
    name: "UniversityPage",
  }),
  detail({
    resource: "universities",
    key: "slug",
    parameter: slugParameter("university"),
    operationId: "getUniversity",
    summary: "Get a university",
    description:
      "One university with its application cycles (a university may publish several closing dates, e.g. an earlier one for MBChB) and its application fees.",
    tag: TAGS.universities,
    scope: ENDPOINT_SCOPES.universities,
    record: api.University,
    name: "UniversityResponse",
  }),
  paginatedList({
    resource: "qualifications",
    operationId: "listQualifications",
    summary: "List qualifications",
    description:
      "Undergraduate qualifications of every university, ordered by university slug, then name. `min_aps` is on the university's own APS scale.",
    tag: TAGS.qualifications,
    scope: ENDPOINT_SCOPES.qualifications,
    item: api.QualificationListItem,
    name: "QualificationPage",
  }),
  detail({
    resource: "qualifications",
    key: "id",
    parameter: uuidParameter("qualification"),
    operationId: "getQualification",
    summary: "Get a qualification",
    description: "One qualification, with where its facts come from and how well they are confirmed (`confidence`).",
    tag: TAGS.qualifications,
    scope: ENDPOINT_SCOPES.qualifications,
    record: api.Qualification,
    name: "QualificationResponse",
  }),
  {
    operationId: "listQualificationRequirements",
    method: "get",
    path: "/v1/data/qualifications/{id}/requirements",
    summary: "List a qualification's subject requirements",
    description:
      "The NSC subject requirements of one qualification: compulsory ones first, then by group and subject. Requirements that share an `alternative_group` are alternatives (one of them is needed); a lone requirement with `is_compulsory: false` is a recommendation.",
    tag: TAGS.qualifications,
    scope: ENDPOINT_SCOPES.qualificationRequirements,
    pathParameters: uuidParameter("qualification"),
    response: { name: "QualificationRequirementList", schema: api.recordOf(z.array(api.QualificationRequirement)), description: "The requirements." },
    errors: ["not_found"],
    examples: (source) => {
      const found = source.requirements();
      return found ? [{ summary: "The first qualification with requirements", path: { id: found.id }, response: found.body }] : [];
    },
  },
  wholeList({
    resource: "subjects",
    operationId: "listSubjects",
    summary: "List subjects",
    description:
      "All NSC subjects, ordered by name. Their slugs are the `subject_slug` values of the APS calculator. Any valid token may read this list.",
    tag: TAGS.subjects,
    scope: ENDPOINT_SCOPES.subjects,
    item: api.Subject,
    name: "SubjectList",
  }),
  {
    operationId: "calculateAps",
    method: "post",
    path: "/v1/data/aps-calculator",
    summary: "Calculate an APS",
    description:
      "Scores NSC results on the chosen university's own APS scheme and lists that university's qualifications whose minimum APS and subject requirements the results meet. The answer explains itself: the points of every subject, which counted, and the scheme with its source and confidence.",
    tag: TAGS.aps,
    scope: ENDPOINT_SCOPES.apsCalculator,
    body: { name: "ApsRequest", schema: ApsRequestSchema },
    response: { name: "ApsResponse", schema: api.recordOf(ApsResultSchema), description: "The score and what it qualifies for." },
    errors: [...JSON_BODY_ERRORS, "invalid_aps_request"],
    examples: async (source) => {
      const slug = source.listItems("universities", 1).items[0]?.slug;
      if (typeof slug !== "string") return [];
      const body = { university_slug: slug, marks: EXAMPLE_MARKS };
      const answer = await answerApsRequest(body, async (s) => source.apsDocument(s));
      return answer.status === 200
        ? [{ summary: "A learner's results at the first university of the list", body, response: { data: answer.data } }]
        : [];
    },
  },
  {
    operationId: "compareAps",
    method: "post",
    path: "/v1/data/aps-calculator/compare",
    summary: "Compare APS at several universities",
    description:
      "Scores the same NSC results at every university named in `university_slugs` (default: all 26), each on its own APS scheme with the same engine as the single calculator, ordered by university name. Each university lists what the results qualify for and its near misses: qualifications not met that would be with a small change (at most 10% of the scheme's maximum APS short, and at most one subject requirement one NSC level short), each with what is missing, fewest missing first.",
    tag: TAGS.aps,
    scope: ENDPOINT_SCOPES.apsCalculator,
    body: { name: "ApsCompareRequest", schema: CompareRequestSchema },
    response: {
      name: "ApsCompareResponse",
      schema: CompareResultSchema,
      description: "One entry per university, with meta {universities, qualifies_for_total}.",
    },
    errors: [...JSON_BODY_ERRORS, "invalid_aps_request"],
    examples: async (source) => {
      const index = source.apsIndex();
      if (!index) return [];
      const body = { marks: EXAMPLE_MARKS, university_slugs: index.universities.slice(0, 2).map((u) => u.slug) };
      const answer = await answerCompareRequest(body, index, async (s) => source.apsDocument(s));
      return answer.status === 200 ? [{ summary: "A learner's results at the first two universities", body, response: answer.data }] : [];
    },
  },
  {
    operationId: "apsTargets",
    method: "post",
    path: "/v1/data/aps-calculator/targets",
    summary: "What marks would it take",
    description:
      "For a learner before the final examinations: for one qualification (`qualification_id`) or every qualification of a university (`university_slug`), the smallest raise of the learner's own marks that would make them qualify by the calculator's own rules (minimum APS, subject requirements, and the statutory pass the qualification's type needs), or `reachable: false` with the reason no raise can (a subject they do not take, an APS out of reach). Smallest: the fewest percentage points in total, then the fewest subjects changed. The search is bounded (2,000 states); where it stops early, `reason` says so.",
    tag: TAGS.aps,
    scope: ENDPOINT_SCOPES.apsCalculator,
    body: { name: "ApsTargetsRequest", schema: TargetsRequestSchema },
    response: { name: "ApsTargetsResponse", schema: TargetsResultSchema, description: "One entry per qualification." },
    errors: [...JSON_BODY_ERRORS, "invalid_aps_request"],
    examples: async (source) => {
      const index = source.apsIndex();
      const slug = index?.universities[0]?.slug;
      const document = slug ? source.apsDocument(slug) : null;
      const q = document?.qualifications.find((x) => x.min_aps !== null);
      if (!document || !q) return [];
      const body = { marks: EXAMPLE_MARKS, qualification_id: q.id };
      const answer = await answerTargetsRequest(
        body,
        async (s) => source.apsDocument(s),
        async () => document.university.slug,
      );
      return answer.status === 200 ? [{ summary: "What one programme would take", body, response: answer.data }] : [];
    },
  },
  paginatedList({
    resource: "high-schools",
    operationId: "listHighSchools",
    summary: "List high schools",
    description: "Schools that write the NSC, ordered by province, name and EMIS number.",
    tag: TAGS.highSchools,
    scope: ENDPOINT_SCOPES.highSchools,
    item: api.HighSchoolListItem,
    name: "HighSchoolPage",
  }),
  detail({
    resource: "high-schools",
    key: "id",
    parameter: opaqueParameter("school"),
    operationId: "getHighSchool",
    summary: "Get a high school",
    description: "One school, with its district, sector, phase and coordinates.",
    tag: TAGS.highSchools,
    scope: ENDPOINT_SCOPES.highSchools,
    record: api.HighSchool,
    name: "HighSchoolResponse",
  }),
  paginatedList({
    resource: "bursaries",
    operationId: "listBursaries",
    summary: "List bursaries",
    description:
      "Bursaries and scholarships, ordered by name. Each list item carries what a finder filters and shows without a detail call: the latest published cycle's dates (`opening_date`, `closing_date`, `intake_year`), provider type, fields of study, study levels, whether the scheme recurs every year with its expected next cycle, and the confidence of the dates.",
    tag: TAGS.bursaries,
    scope: ENDPOINT_SCOPES.bursaries,
    item: api.BursaryListItem,
    name: "BursaryPage",
  }),
  detail({
    resource: "bursaries",
    key: "slug",
    parameter: slugParameter("bursary"),
    operationId: "getBursary",
    summary: "Get a bursary",
    description:
      "One bursary: its provider, fields of study, what it covers and its published value, who may apply (`requires`, structured where the provider states it, and the free-text `eligibility`), where to apply, every published cycle newest first with the witness of its dates, and for an annual scheme the cycle expected next (projected, never published).",
    tag: TAGS.bursaries,
    scope: ENDPOINT_SCOPES.bursaries,
    record: api.Bursary,
    name: "BursaryResponse",
  }),
  wholeList({
    resource: "fields-of-study",
    operationId: "listFieldsOfStudy",
    summary: "List fields of study",
    description:
      "The vocabulary bursaries' `fields` are written in, ordered by name: each field's slug (the values of the bursaries' `field` filter), name, description, and how many bursaries that filter lists.",
    tag: TAGS.bursaries,
    scope: ENDPOINT_SCOPES.fieldsOfStudy,
    item: api.FieldOfStudy,
    name: "FieldOfStudyList",
  }),
  paginatedList({
    resource: "postal-codes",
    operationId: "listPostalCodes",
    summary: "List postal codes",
    description: "Suburbs with their street and box codes, ordered by area, then suburb.",
    tag: TAGS.postalCodes,
    scope: ENDPOINT_SCOPES.postalCodes,
    item: api.PostalCodeListItem,
    name: "PostalCodePage",
  }),
  detail({
    resource: "postal-codes",
    key: "id",
    parameter: opaqueParameter("postal code record"),
    operationId: "getPostalCode",
    summary: "Get a postal code record",
    description: "One suburb's codes, with its province.",
    tag: TAGS.postalCodes,
    scope: ENDPOINT_SCOPES.postalCodes,
    record: api.PostalCode,
    name: "PostalCodeResponse",
  }),
  {
    operationId: "parseIdNumber",
    method: "post",
    path: "/v1/id/parse",
    summary: "Parse an ID number",
    description:
      "Decodes a 13-digit South African ID number: date of birth, gender, citizenship and the Luhn check. An invalid number is still a 200: `valid` is false and `errors` says why (with hints such as spaces or a lost leading zero); fields that cannot be decoded are null.",
    tag: TAGS.idNumbers,
    scope: ENDPOINT_SCOPES.idParser,
    body: { name: "IdParseRequest", schema: IdParseRequestSchema },
    response: { name: "ParsedIdResponse", schema: api.recordOf(ParsedIdSchema), description: "What the number says, and whether it is valid." },
    errors: [...JSON_BODY_ERRORS, "invalid_id_request"],
    examples: (source) =>
      [
        { summary: "A valid ID number", id_number: "8001015009087" },
        { summary: "A wrong check digit", id_number: "8001015009088" },
      ].map(({ summary, id_number }) => ({ summary, body: { id_number }, response: { data: parseIdNumber(id_number, source.today) } })),
  },
  paginatedList({
    resource: "prospectuses",
    operationId: "listProspectuses",
    summary: "List prospectuses",
    description:
      "Prospectus documents, ordered by university, newest year first. A university that publishes one per faculty has one record per part, each with a `title`. `url` opens the document without a token.",
    tag: TAGS.prospectuses,
    scope: ENDPOINT_SCOPES.prospectuses,
    item: api.Prospectus,
    name: "ProspectusPage",
    served: (record) => servedProspectus(record as { document_path: string } & Record<string, unknown>, EXAMPLE_ASSET_URL),
  }),
  wholeList({
    resource: "provinces",
    operationId: "listProvinces",
    summary: "List provinces",
    description: "The nine provinces, ordered by name.",
    tag: TAGS.provinces,
    scope: ENDPOINT_SCOPES.provinces,
    item: api.Province,
    name: "ProvinceList",
  }),
];
