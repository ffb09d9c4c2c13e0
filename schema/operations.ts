// The API's operations: ONE table, one entry per method and path. The OpenAPI document (schema/openapi.ts,
// served at /v1/openapi.json), the reference page (/docs), the typed client (client/) and the Worker's router
// (functions/route.ts) are all made from this table and the zod schemas, so an operation added later is one
// entry here; a resource's list and detail are made from its entry in the registry (schema/resources.ts).
//
// An entry says: method, path, summary, the scope from domain/scopes.ts, the path and query parameters and
// the request body as zod schemas, the 200 body's schema, the error codes it can answer besides those of
// authentication (each error status gets the error body with exactly its codes), the target the Worker
// hands the request to, and where its example comes from in the real build (schema/operation.ts).
import { z } from "zod";
import { answerApsRequest } from "../domain/aps/request.ts";
import { answerCompareRequest } from "../domain/aps/compare.ts";
import { ApsRequestSchema, ApsResultSchema, CompareAnswerSchema, CompareRequestSchema } from "../domain/aps/schemas.ts";
import { answerTargetsRequest, TargetsRequestSchema, TargetsResultSchema } from "../domain/aps/targets.ts";
import { IdParseRequestSchema, ParsedIdSchema, parseIdNumber } from "../domain/id-number.ts";
import { ENDPOINT_SCOPES } from "../domain/scopes.ts";
import { PATTERN } from "../lib/vocabulary.ts";
import * as api from "./api.ts";
import type { ErrorCode } from "./errors.ts";
import type { Operation } from "./operation.ts";
import { resourceOperations } from "./resource-operations.ts";
import { SYNC_OPERATIONS } from "./sync-operations.ts";
import { RESOURCES, resourceEntries, TAGS, uuidParameter, type ResourceDefinition, type ResourceName } from "./resources.ts";

export type { Example, ExampleSource, Operation, Target } from "./operation.ts";
export { EXAMPLE_ASSET_URL } from "./resource-operations.ts";

/** Statuses every operation that needs a token can answer; each with all of its codes in schema/errors.ts. */
export const AUTH_ERROR_STATUSES = [401, 403, 429, 500] as const;

/** Codes of other statuses every operation that needs a token can answer: a malformed Authorization header. */
export const AUTH_ERROR_CODES: ErrorCode[] = ["invalid_request"];

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

const listQualificationRequirements: Operation = {
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
  target: (parameters) => ({ kind: "requirements", id: parameters.id ?? "" }),
  pathPatterns: { id: PATTERN.uuid },
  examples: (source) => {
    const found = source.requirements();
    return found ? [{ summary: "The first qualification with requirements", path: { id: found.id }, response: found.body }] : [];
  },
};

const calculateAps: Operation = {
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
  target: () => ({ kind: "aps" }),
  examples: async (source) => {
    const slug = source.listItems("universities", 1).items[0]?.slug;
    if (typeof slug !== "string") return [];
    const body = { university_slug: slug, marks: EXAMPLE_MARKS };
    const answer = await answerApsRequest(body, async (s) => source.apsDocument(s));
    return answer.status === 200
      ? [{ summary: "A learner's results at the first university of the list", body, response: { data: answer.data } }]
      : [];
  },
};

const compareAps: Operation = {
  operationId: "compareAps",
  method: "post",
  path: "/v1/data/aps-calculator/compare",
  summary: "Compare APS at several universities",
  description:
    'Scores the same NSC results at every university named in `university_slugs` (default: all 26), each on its own APS scheme with the same engine as the single calculator, ordered by university name. Each university lists what the results qualify for and its near misses: qualifications not met that would be with a small change (at most 10% of the scheme\'s maximum APS short, and at most one subject requirement one NSC level short), each with what is missing, fewest missing first. With `"view": "summary"` the answer keeps what depends on the marks (about a quarter of the bytes, for a phone): see the `view` field.',
  tag: TAGS.aps,
  scope: ENDPOINT_SCOPES.apsCalculator,
  body: { name: "ApsCompareRequest", schema: CompareRequestSchema },
  response: {
    name: "ApsCompareResponse",
    schema: CompareAnswerSchema,
    description: 'One entry per university, with meta {universities, qualifies_for_total}; in the summary view, meta.view is "summary".',
  },
  errors: [...JSON_BODY_ERRORS, "invalid_aps_request"],
  target: () => ({ kind: "aps-compare" }),
  examples: async (source) => {
    const index = source.apsIndex();
    if (!index) return [];
    const body = { marks: EXAMPLE_MARKS, university_slugs: index.universities.slice(0, 2).map((u) => u.slug) };
    const load = async (s: string) => source.apsDocument(s);
    const answer = await answerCompareRequest(body, index, load);
    const summaryBody = { ...body, view: "summary" };
    const summary = await answerCompareRequest(summaryBody, index, load);
    return [
      ...(answer.status === 200 ? [{ summary: "A learner's results at the first two universities", body, response: answer.data }] : []),
      ...(summary.status === 200 ? [{ summary: "The same results, summarised (view: summary)", body: summaryBody, response: summary.data }] : []),
    ];
  },
};

const apsTargets: Operation = {
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
  target: () => ({ kind: "aps-targets" }),
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
};

const parseIdNumberOperation: Operation = {
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
  target: () => ({ kind: "id-parse" }),
  examples: (source) =>
    [
      { summary: "A valid ID number", id_number: "8001015009087" },
      { summary: "A wrong check digit", id_number: "8001015009088" },
    ].map(({ summary, id_number }) => ({ summary, body: { id_number }, response: { data: parseIdNumber(id_number, source.today) } })),
};

/**
 * The order of the document: a resource name stands for its operations (list, then detail). A registered
 * resource the order does not name comes after all of these, in the registry's order.
 */
const ORDER: (ResourceName | Operation)[] = [
  "universities",
  "qualifications",
  listQualificationRequirements,
  "subjects",
  calculateAps,
  compareAps,
  apsTargets,
  "high-schools",
  "bursaries",
  "fields-of-study",
  "postal-codes",
  parseIdNumberOperation,
  "prospectuses",
  "provinces",
  ...SYNC_OPERATIONS,
];

/** The operations of `order`, each resource's made from `registry`, then those of the resources it does not name. */
function operationsOf(order: (string | Operation)[], registry: Readonly<Record<string, ResourceDefinition>>): Operation[] {
  const resources = resourceEntries(registry);
  const placed = new Set(order.filter((entry) => typeof entry === "string"));
  const operationsNamed = (name: string) => resources.filter((r) => r.name === name).flatMap(resourceOperations);
  return [
    ...order.flatMap((entry) => (typeof entry === "string" ? operationsNamed(entry) : [entry])),
    ...resources.filter((r) => !placed.has(r.name)).flatMap(resourceOperations),
  ];
}

export const OPERATIONS: Operation[] = operationsOf(ORDER, RESOURCES);
