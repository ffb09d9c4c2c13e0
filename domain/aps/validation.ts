// Checking an APS request body field by field: every problem is collected, each with the exact path a client
// can point at and a message that says what was expected; the Worker answers them as a 422 invalid_aps_request.
// Used by the single calculator (request.ts), the comparison (compare.ts) and targets (targets.ts).
import { MAX_SLUG_LENGTH, SLUG } from "../../lib/vocabulary.ts";
import { type ApsResult, MAX_MARKS } from "./schemas.ts";
import type { ApsUniversityDocument, Mark } from "./scheme.ts";

/** The universities a comparison can name, in the order answers are given (by name), and every subject slug. */
export type ApsIndex = { universities: { slug: string; name: string }[]; subjects: string[] };
const APS_ERROR_CODE = "invalid_aps_request";

export type ApsErrorDetail = { path: string; message: string };

export type ApsResponse<T = ApsResult> =
  | { status: 200; data: T }
  | { status: 422; code: typeof APS_ERROR_CODE; message: string; details: ApsErrorDetail[] };

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const describe = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : `a ${typeof value}`;

export function invalid(details: ApsErrorDetail[]): ApsResponse {
  const first = details[0]?.message ?? "";
  const message =
    details.length === 1 ? `The APS request is invalid: ${details[0]?.path} ${first}` : `The APS request has ${details.length} problems; see details`;
  return { status: 422, code: APS_ERROR_CODE, message, details };
}

export type Loader = (slug: string) => Promise<ApsUniversityDocument | null>;

/** university_slug: a slug of a university the loader knows. Only a well-formed slug is handed to the
 * loader, so a body can never steer the Worker to an arbitrary asset path. */
export async function checkUniversity(slug: unknown, load: Loader, details: ApsErrorDetail[]): Promise<ApsUniversityDocument | null> {
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
    details.push({
      path: "university_slug",
      message: `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)`,
    });
  }
  return document;
}

/** One marks[i]: a known subject not given before, and a percentage from 0 to 100. */
function checkMark(
  item: unknown,
  i: number,
  knownSubjects: ReadonlySet<string> | null,
  firstIndexOf: Map<string, number>,
  details: ApsErrorDetail[],
): Mark | null {
  const at = `marks[${i}]`;
  if (!isObject(item)) {
    details.push({ path: at, message: `must be an object {subject_slug, percentage}, not ${describe(item)}` });
    return null;
  }
  let subjectOk = false;
  const subject = item.subject_slug;
  if (subject === undefined) details.push({ path: `${at}.subject_slug`, message: "is required (a slug from GET /v1/data/subjects)" });
  else if (typeof subject !== "string") details.push({ path: `${at}.subject_slug`, message: `must be a string, not ${describe(subject)}` });
  else if (firstIndexOf.has(subject)) {
    details.push({
      path: `${at}.subject_slug`,
      message: `repeats ${JSON.stringify(subject)} from marks[${firstIndexOf.get(subject)}]; give each subject once`,
    });
  } else {
    firstIndexOf.set(subject, i);
    if (knownSubjects && !knownSubjects.has(subject)) {
      details.push({
        path: `${at}.subject_slug`,
        message: `${JSON.stringify(subject.slice(0, 100))} is not a known subject slug (see GET /v1/data/subjects)`,
      });
    } else {
      subjectOk = true;
    }
  }
  let percentageOk = false;
  const percentage = item.percentage;
  if (percentage === undefined) details.push({ path: `${at}.percentage`, message: "is required (a number from 0 to 100)" });
  else if (typeof percentage !== "number" || !Number.isFinite(percentage)) {
    details.push({ path: `${at}.percentage`, message: `must be a number from 0 to 100, not ${describe(percentage)}` });
  } else if (percentage < 0 || percentage > 100) {
    details.push({ path: `${at}.percentage`, message: `must be from 0 to 100, not ${percentage}` });
  } else {
    percentageOk = true;
  }
  return subjectOk && percentageOk ? { subject_slug: subject as string, percentage: percentage as number } : null;
}

/** marks: 1 to MAX_MARKS marks, each subject once. Subjects are checked against knownSubjects when given. */
export function checkMarks(raw: unknown, knownSubjects: ReadonlySet<string> | null, details: ApsErrorDetail[]): Mark[] {
  if (raw === undefined) {
    details.push({ path: "marks", message: "is required (an array of {subject_slug, percentage})" });
    return [];
  }
  if (!Array.isArray(raw)) {
    details.push({ path: "marks", message: `must be an array of {subject_slug, percentage}, not ${describe(raw)}` });
    return [];
  }
  if (raw.length === 0) {
    details.push({ path: "marks", message: "must hold at least one mark" });
    return [];
  }
  if (raw.length > MAX_MARKS) details.push({ path: "marks", message: `must hold at most ${MAX_MARKS} marks, not ${raw.length}` });
  const firstIndexOf = new Map<string, number>();
  return raw.flatMap((item: unknown, i) => checkMark(item, i, knownSubjects, firstIndexOf, details) ?? []);
}

/** university_slugs: absent (every university), or a non-empty array of known slugs, each once. */
export function checkUniversitySlugs(raw: unknown, index: ApsIndex, details: ApsErrorDetail[]): string[] {
  const known = new Set(index.universities.map((u) => u.slug));
  if (raw === undefined) return index.universities.map((u) => u.slug);
  if (!Array.isArray(raw)) {
    details.push({ path: "university_slugs", message: `must be an array of university slugs, not ${describe(raw)}` });
    return [];
  }
  if (raw.length === 0) {
    details.push({ path: "university_slugs", message: "must name at least one university (leave it out to compare all of them)" });
    return [];
  }
  const chosen = new Set<string>();
  raw.forEach((slug: unknown, i) => {
    const at = `university_slugs[${i}]`;
    if (typeof slug !== "string") details.push({ path: at, message: `must be a string, not ${describe(slug)}` });
    else if (chosen.has(slug))
      details.push({ path: at, message: `repeats ${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))}; name each university once` });
    else if (!known.has(slug))
      details.push({
        path: at,
        message: `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)`,
      });
    else chosen.add(slug);
  });
  return index.universities.map((u) => u.slug).filter((slug) => chosen.has(slug));
}
