// Checking an APS request body: its zod schema (schemas.ts) says what each field must be, with the message of each
// problem; what only the data can say comes after: whether the university, the subjects and the universities of a
// comparison exist. Every problem is collected, each with the exact path a client can point at (`marks[2].percentage`),
// in the order of the fields (unknown fields first); the Worker answers them as a 422 invalid_aps_request.
// Used by the single calculator (request.ts), the comparison (compare.ts) and targets (targets.ts).
import type { z } from "zod";
import type { ErrorDetail } from "../../lib/error-detail.ts";
import { MAX_SLUG_LENGTH, SLUG } from "../../lib/vocabulary.ts";
import { type ApsResult, MAX_MARKS, MarksItemsSchema, MarksSchema, unknownUniversity } from "./schemas.ts";
import type { ApsUniversityDocument, Mark } from "./scheme.ts";
import { describe, isObject } from "./values.ts";

/** The universities a comparison can name, in the order answers are given (by name), and every subject slug. */
export type ApsIndex = { universities: { slug: string; name: string }[]; subjects: string[] };
const APS_ERROR_CODE = "invalid_aps_request";

export type ApsResponse<T = ApsResult> =
  | { status: 200; data: T }
  | { status: 422; code: typeof APS_ERROR_CODE; message: string; details: ErrorDetail[] };

export function invalid(details: ErrorDetail[]): ApsResponse {
  const first = details[0]?.message ?? "";
  const message =
    details.length === 1 ? `The APS request is invalid: ${details[0]?.path} ${first}` : `The APS request has ${details.length} problems; see details`;
  return { status: 422, code: APS_ERROR_CODE, message, details };
}

export type Loader = (slug: string) => Promise<ApsUniversityDocument | null>;

/** university_slug: a slug of a university the loader knows. Only a well-formed slug is handed to the
 * loader, so a body can never steer the Worker to an arbitrary asset path. */
export async function checkUniversity(slug: unknown, load: Loader, details: ErrorDetail[]): Promise<ApsUniversityDocument | null> {
  if (slug === undefined) {
    details.push({ path: "university_slug", message: "is required (a university slug from GET /v1/data/universities)" });
    return null;
  }
  if (typeof slug !== "string") {
    details.push({ path: "university_slug", message: `must be a string, not ${describe(slug)}` });
    return null;
  }
  const document = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug) ? await load(slug) : null;
  if (document === null) {
    details.push({ path: "university_slug", message: unknownUniversity(slug) });
  }
  return document;
}

/** A problem before it is written as a detail: its path as zod gives it. */
export type Problem = { path: PropertyKey[]; message: string };

/** The schema's problems with `value`, unknown fields one by one. `fields`: the request's fields, as a message names them. */
export function problemsOf(schema: z.ZodType, value: unknown, fields: readonly string[] = []): Problem[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): Problem[] =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: [...issue.path, key], message: `is not a field of this request (${fields.join(", ")})` }))
      : [{ path: issue.path, message: issue.message }],
  );
}

/** The problems of a request's marks (under `at`): zod reads no item of a list that is too long, but the API names theirs too. */
export function marksProblems(marks: unknown, at: PropertyKey[] = ["marks"]): Problem[] {
  const problems = problemsOf(MarksSchema, marks);
  const tooMany = Array.isArray(marks) && marks.length > MAX_MARKS;
  const items = tooMany ? problemsOf(MarksItemsSchema, marks).filter((p) => p.path.length > 0) : [];
  return [...problems, ...items].map((p) => ({ path: [...at, ...p.path], message: p.message }));
}

const key = (path: readonly PropertyKey[]) => path.map(String).join("\u0000");

export const hasProblemAt = (problems: readonly Problem[], path: readonly PropertyKey[]) => problems.some((p) => key(p.path) === key(path));

/** Each mark's subject that the university does not know (where its subject has no other problem). */
export function unknownSubjects(marks: unknown, knownSubjects: ReadonlySet<string> | null, problems: Problem[]): void {
  if (knownSubjects === null || !Array.isArray(marks)) return;
  marks.forEach((mark: unknown, i) => {
    const subject = isObject(mark) ? mark.subject_slug : undefined;
    if (typeof subject !== "string" || knownSubjects.has(subject) || hasProblemAt(problems, ["marks", i, "subject_slug"])) return;
    problems.push({
      path: ["marks", i, "subject_slug"],
      message: `${JSON.stringify(subject.slice(0, 100))} is not a known subject slug (see GET /v1/data/subjects)`,
    });
  });
}

/** How a segment of a path sorts: a mark's subject before its percentage; other names keep their order. */
const SUBFIELDS = ["subject_slug", "percentage"];

function compareSegments(a: PropertyKey | undefined, b: PropertyKey | undefined, order: readonly string[]): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const rank = (s: PropertyKey) => (order.includes(String(s)) ? order.indexOf(String(s)) : -1);
  return rank(a) - rank(b);
}

/** `marks[2].percentage` */
const pathText = (path: readonly PropertyKey[]) =>
  path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`)).join("");

/**
 * The problems as details, in the order a client reads its body: unknown fields first (as sent), then the fields in
 * `order`, and within a field the field itself before its items, the items in order, a mark's subject before its
 * percentage.
 */
export function detailsInOrder(problems: readonly Problem[], order: readonly string[]): ErrorDetail[] {
  const sorted = [...problems].sort((a, b) => {
    const length = Math.max(a.path.length, b.path.length);
    for (let i = 0; i < length; i++) {
      const c = compareSegments(a.path[i], b.path[i], i === 0 ? order : SUBFIELDS);
      if (c !== 0) return c;
    }
    return 0;
  });
  return sorted.map((p) => ({ path: pathText(p.path), message: p.message }));
}

/** marks: 1 to MAX_MARKS marks, each subject once. Subjects are checked against knownSubjects when given. */
export function checkMarks(raw: unknown, knownSubjects: ReadonlySet<string> | null, details: ErrorDetail[]): Mark[] {
  const problems = marksProblems(raw);
  unknownSubjects(raw, knownSubjects, problems);
  details.push(...detailsInOrder(problems, ["marks"]));
  return problems.length === 0 ? (raw as Mark[]) : [];
}

/** university_slugs, once the schema has read them: each a known university, named once. Absent: every university. */
export function chosenUniversities(raw: unknown, index: ApsIndex, problems: Problem[]): string[] {
  if (raw === undefined) return index.universities.map((u) => u.slug);
  if (!Array.isArray(raw) || hasProblemAt(problems, ["university_slugs"])) return [];
  const known = new Set(index.universities.map((u) => u.slug));
  const chosen = new Set<string>();
  raw.forEach((slug: unknown, i) => {
    const at = ["university_slugs", i];
    if (typeof slug !== "string" || hasProblemAt(problems, at)) return;
    if (chosen.has(slug))
      problems.push({ path: at, message: `repeats ${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))}; name each university once` });
    else if (!known.has(slug)) problems.push({ path: at, message: unknownUniversity(slug) });
    else chosen.add(slug);
  });
  return index.universities.map((u) => u.slug).filter((slug) => chosen.has(slug));
}
