// POST /v1/data/aps-calculator, minus HTTP: the parsed JSON body is checked field by field (validation.ts),
// the university's document is loaded through the caller's function, and the marks are scored and judged
// (engine.ts, judging.ts). The Worker wraps a 422 as {"error": {...}} and a 200 as {"data": ...}.
import { computeAps } from "./engine.ts";
import { judgeUniversity, prepare } from "./judging.ts";
import type { ApsResult } from "./schemas.ts";
import type { ApsUniversityDocument, Mark } from "./scheme.ts";
import { type ApsErrorDetail, type ApsResponse, checkMarks, checkUniversity, describe, invalid, isObject, type Loader } from "./validation.ts";

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

export async function answerApsRequest(body: unknown, loadUniversity: Loader): Promise<ApsResponse> {
  if (!isObject(body)) {
    return invalid([{ path: "body", message: `must be a JSON object with university_slug and marks, not ${describe(body)}` }]);
  }
  const details: ApsErrorDetail[] = [];
  const document = await checkUniversity(body.university_slug, loadUniversity, details);
  const knownSubjects = document ? prepare(document).subjects : null;
  const marks = checkMarks(body.marks, knownSubjects, details);
  if (details.length > 0 || document === null) return invalid(details);
  return { status: 200, data: apsResultOf(document, marks) };
}
