// POST /v1/data/aps-calculator, minus HTTP: the parsed JSON body is checked field by field (every
// problem is collected, each with the exact path a client can point at), the university's document is
// loaded through the caller's function, and the result is scored and matched. The Worker wraps a 422 as
// {"error": {...}} and a 200 as {"data": ...}.
import { z } from "zod";
import { computeAps, type SubjectBreakdown, type UnfilledSlot } from "./engine.ts";
import { qualifiesFor } from "./qualify.ts";
import { APS_METHODS, CONFIDENCE_LEVELS, LIFE_ORIENTATION_TREATMENTS, type ApsUniversityDocument, type Mark } from "./scheme.ts";

export const MAX_MARKS = 20;
export const APS_ERROR_CODE = "invalid_aps_request";

// Same shape as the build's slug cells. Anything else is never handed to the loader, so a body can
// never steer the Worker to an arbitrary asset path.
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG_LENGTH = 100;

export type ApsErrorDetail = { path: string; message: string };

export type ApsResult = {
  aps_score: number;
  university_slug: string;
  qualifies_for: string[];
  exact_score: number;
  maximum: number;
  breakdown: SubjectBreakdown[];
  unfilled: UnfilledSlot[];
  scheme: {
    id: string;
    name: string;
    intake_year: number;
    method: ApsUniversityDocument["scheme"]["method"];
    life_orientation: ApsUniversityDocument["scheme"]["life_orientation"];
    maximum: number;
    confidence: ApsUniversityDocument["scheme"]["confidence"];
    notes: string;
    source_url: string;
    verified_on: string;
  };
};

export type ApsResponse =
  | { status: 200; data: ApsResult }
  | { status: 422; code: string; message: string; details: ApsErrorDetail[] };

/** The 200 data, for response checks in tests and the OpenAPI document. */
export const ApsResultSchema = z.object({
  aps_score: z.number().int(),
  university_slug: z.string(),
  qualifies_for: z.array(z.string()),
  exact_score: z.number(),
  maximum: z.number().int(),
  breakdown: z.array(
    z.object({
      subject_slug: z.string(),
      percentage: z.number().min(0).max(100),
      scale_class: z.string().nullable(),
      points: z.number(),
      bonus_points: z.number(),
      counted: z.boolean(),
      counted_as: z.string().nullable(),
      reason: z.string(),
    }),
  ),
  unfilled: z.array(z.object({ class: z.string(), missing: z.number().int().positive(), note: z.string() })),
  scheme: z.object({
    id: z.string(),
    name: z.string(),
    intake_year: z.number().int(),
    method: z.enum(APS_METHODS),
    life_orientation: z.enum(LIFE_ORIENTATION_TREATMENTS),
    maximum: z.number().int(),
    confidence: z.enum(CONFIDENCE_LEVELS),
    notes: z.string(),
    source_url: z.string(),
    verified_on: z.string(),
  }),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const describe = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : `a ${typeof value}`;

function invalid(details: ApsErrorDetail[]): ApsResponse {
  const first = details[0]?.message ?? "";
  const message =
    details.length === 1 ? `The APS request is invalid: ${details[0]?.path} ${first}` : `The APS request has ${details.length} problems; see details`;
  return { status: 422, code: APS_ERROR_CODE, message, details };
}

export async function handleApsRequest(
  body: unknown,
  loadUniversity: (slug: string) => Promise<ApsUniversityDocument | null>,
): Promise<ApsResponse> {
  const details: ApsErrorDetail[] = [];
  if (!isObject(body)) {
    return invalid([{ path: "body", message: `must be a JSON object with university_slug and marks, not ${describe(body)}` }]);
  }

  let document: ApsUniversityDocument | null = null;
  const slug = body.university_slug;
  if (slug === undefined) {
    details.push({ path: "university_slug", message: "is required (a university slug from GET /v1/data/universities)" });
  } else if (typeof slug !== "string") {
    details.push({ path: "university_slug", message: `must be a string, not ${describe(slug)}` });
  } else {
    document = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug) ? await loadUniversity(slug) : null;
    if (document === null) {
      details.push({ path: "university_slug", message: `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)` });
    }
  }
  const knownSubjects = document ? new Set(document.subjects.map((s) => s.slug)) : null;

  const marks: Mark[] = [];
  const raw = body.marks;
  if (raw === undefined) {
    details.push({ path: "marks", message: "is required (an array of {subject_slug, percentage})" });
  } else if (!Array.isArray(raw)) {
    details.push({ path: "marks", message: `must be an array of {subject_slug, percentage}, not ${describe(raw)}` });
  } else if (raw.length === 0) {
    details.push({ path: "marks", message: "must hold at least one mark" });
  } else {
    if (raw.length > MAX_MARKS) details.push({ path: "marks", message: `must hold at most ${MAX_MARKS} marks, not ${raw.length}` });
    const firstIndexOf = new Map<string, number>();
    raw.forEach((item: unknown, i) => {
      const at = `marks[${i}]`;
      if (!isObject(item)) {
        details.push({ path: at, message: `must be an object {subject_slug, percentage}, not ${describe(item)}` });
        return;
      }
      let subjectOk = false;
      const subject = item.subject_slug;
      if (subject === undefined) details.push({ path: `${at}.subject_slug`, message: "is required (a slug from GET /v1/data/subjects)" });
      else if (typeof subject !== "string") details.push({ path: `${at}.subject_slug`, message: `must be a string, not ${describe(subject)}` });
      else if (firstIndexOf.has(subject)) {
        details.push({ path: `${at}.subject_slug`, message: `repeats ${JSON.stringify(subject)} from marks[${firstIndexOf.get(subject)}]; give each subject once` });
      } else {
        firstIndexOf.set(subject, i);
        if (knownSubjects && !knownSubjects.has(subject)) {
          details.push({ path: `${at}.subject_slug`, message: `${JSON.stringify(subject.slice(0, 100))} is not a known subject slug (see GET /v1/data/subjects)` });
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
      if (subjectOk && percentageOk) marks.push({ subject_slug: subject as string, percentage: percentage as number });
    });
  }

  if (details.length > 0 || document === null) return invalid(details);

  const computation = computeAps(document.scheme, marks);
  const { scheme } = document;
  return {
    status: 200,
    data: {
      aps_score: computation.score,
      university_slug: document.university.slug,
      qualifies_for: qualifiesFor(document, marks, computation.score),
      exact_score: computation.exact_score,
      maximum: computation.maximum,
      breakdown: computation.subjects,
      unfilled: computation.unfilled,
      scheme: {
        id: scheme.id,
        name: scheme.name,
        intake_year: scheme.intake_year,
        method: scheme.method,
        life_orientation: scheme.life_orientation,
        maximum: scheme.maximum,
        confidence: scheme.confidence,
        notes: scheme.notes,
        source_url: scheme.source_url,
        verified_on: scheme.verified_on,
      },
    },
  };
}
