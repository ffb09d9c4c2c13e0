// POST /v1/data/aps-calculator, minus HTTP: the parsed JSON body is checked field by field (validation.ts),
// the university's document is loaded through the caller's function, and the marks are scored and judged
// (engine.ts, judging.ts). The Worker wraps a 422 as {"error": {...}} and a 200 as {"data": ...}.
import { computeAps } from "./engine.ts";
import { judgeUniversity } from "./judging.ts";
import { type ApsResult, ApsRequestSchema, unknownUniversity } from "./schemas.ts";
import type { ApsUniversityDocument, Mark } from "./scheme.ts";
import {
  type ApsResponse,
  detailsInOrder,
  hasProblemAt,
  invalid,
  type Loader,
  marksProblems,
  type Problem,
  problemsOf,
  unknownSubjects,
} from "./validation.ts";
import { describe, isObject } from "./values.ts";

/** The 200 answer for one university: its score on its own scheme, what the marks qualify for, near misses. */
export function apsResultOf(document: ApsUniversityDocument, marks: readonly Mark[]): ApsResult {
  const computation = computeAps(document.scheme, marks);
  const judged = judgeUniversity(document, marks, computation);
  return {
    aps_score: computation.score,
    university_slug: document.university.slug,
    qualifies_for: judged.qualifies_for,
    qualifications: judged.qualifications,
    near_misses: judged.near_misses,
    other_schemes: judged.other_schemes,
    nsc: judged.nsc,
    exact_score: computation.exact_score,
    maximum: computation.maximum,
    breakdown: computation.subjects,
    unfilled: computation.unfilled,
    scheme: judged.scheme,
  };
}

const FIELDS = ["university_slug", "marks"];

const subjectSets = new WeakMap<ApsUniversityDocument, ReadonlySet<string>>();

/** Every subject slug the university knows, as a set made once per document (documents are kept per isolate). */
function subjectsOf(document: ApsUniversityDocument): ReadonlySet<string> {
  let set = subjectSets.get(document);
  if (!set) {
    set = new Set(document.subjects.map((s) => s.slug));
    subjectSets.set(document, set);
  }
  return set;
}

/** The university a request names, loaded when its slug is well formed; a slug the loader does not know is a problem. */
async function knownUniversity(slug: unknown, load: Loader, problems: Problem[]): Promise<ApsUniversityDocument | null> {
  if (typeof slug !== "string" || hasProblemAt(problems, ["university_slug"])) return null;
  const document = await load(slug);
  if (document === null) problems.push({ path: ["university_slug"], message: unknownUniversity(slug) });
  return document;
}

/** The body is validated by ApsRequestSchema (unknown fields refused, as the comparison does); then the university and
 * the subjects must exist. The validated marks are the engine's input. */
export async function answerApsRequest(body: unknown, loadUniversity: Loader): Promise<ApsResponse> {
  if (!isObject(body)) {
    return invalid([{ path: "body", message: `must be a JSON object with university_slug and marks, not ${describe(body)}` }]);
  }
  const parsed = ApsRequestSchema.safeParse(body);
  const problems = parsed.success
    ? []
    : [...problemsOf(ApsRequestSchema, body, FIELDS).filter((p) => p.path[0] !== "marks"), ...marksProblems(body.marks)];
  const document = await knownUniversity(body.university_slug, loadUniversity, problems);
  unknownSubjects(body.marks, document ? subjectsOf(document) : null, problems);
  if (!parsed.success || problems.length > 0 || document === null) return invalid(detailsInOrder(problems, FIELDS));
  return { status: 200, data: apsResultOf(document, parsed.data.marks) };
}
