// POST /v1/data/aps-calculator/compare, minus HTTP: the same marks judged at every university named, each on its
// own scheme by the same judging as the single calculator (judging.ts), ordered by university name.
import { apsScoreOf } from "./engine.ts";
import { judgeUniversity, type PreparedForm, prepare } from "./judging.ts";
import { learnerOf, percentagesOf } from "./qualify.ts";
import { type ComparedUniversity, CompareRequestSchema, type CompareResult, type CompareSummary, SUMMARY_NEAR_MISSES } from "./schemas.ts";
import type { ApsUniversityDocument } from "./scheme.ts";
import {
  type ApsIndex,
  type ApsResponse,
  chosenUniversities,
  detailsInOrder,
  invalid,
  marksProblems,
  problemsOf,
  unknownSubjects,
} from "./validation.ts";
import { describe, isObject } from "./values.ts";

const subjectSets = new WeakMap<ApsIndex, ReadonlySet<string>>();

/** The index's subjects as a set, made once per index (the Worker keeps the index per isolate). */
function subjectSetOf(index: ApsIndex): ReadonlySet<string> {
  let set = subjectSets.get(index);
  if (!set) {
    set = new Set(index.subjects);
    subjectSets.set(index, set);
  }
  return set;
}

/** POST /v1/data/aps-calculator/compare, minus HTTP: the same marks scored at every university named, each on
 * its own scheme by the same engine as the single calculator (apsResultOf), ordered by university name. */
/** The request's fields, as the message about an unknown one names them. */
const FIELDS = ["marks", "university_slugs", "view"];

/** A university by slug: the build's prepared form of it (the Worker: `_internal/aps-compare.json`), or its document,
 * prepared here once per document object (tests, the OpenAPI examples); null for a slug it does not know. */
type CompareLoader = (slug: string) => Promise<PreparedForm | ApsUniversityDocument | null>;

/** The summary view of a comparison: what depends on the marks, and keys to the rest (docs/aps.md#compare). */
function summaryOf(result: CompareResult): CompareSummary {
  return {
    data: result.data.map((u) => ({
      university_slug: u.university_slug,
      university_name: u.university_name,
      aps_score: u.aps_score,
      maximum: u.maximum,
      aps_scheme: u.scheme.id,
      qualifies_for: u.qualifies_for,
      near_misses: u.near_misses.slice(0, SUMMARY_NEAR_MISSES),
      near_misses_total: u.near_misses.length,
      other_schemes: u.other_schemes,
      nsc: { pass: u.nsc.pass, complete: u.nsc.complete, reason: u.nsc.reason },
    })),
    meta: { ...result.meta, view: "summary" },
  };
}

export async function answerCompareRequest(
  body: unknown,
  index: ApsIndex,
  loadUniversity: CompareLoader,
): Promise<ApsResponse<CompareResult | CompareSummary>> {
  if (!isObject(body))
    return invalid([
      { path: "body", message: `must be a JSON object with marks (and optionally university_slugs and view), not ${describe(body)}` },
    ]) as ApsResponse<CompareResult>;
  const parsed = CompareRequestSchema.safeParse(body);
  const problems = parsed.success
    ? []
    : [...problemsOf(CompareRequestSchema, body, FIELDS).filter((p) => p.path[0] !== "marks"), ...marksProblems(body.marks)];
  const slugs = chosenUniversities(body.university_slugs, index, problems);
  unknownSubjects(body.marks, subjectSetOf(index), problems);
  if (!parsed.success || problems.length > 0)
    return invalid(detailsInOrder(problems, ["university_slugs", "marks", "view"])) as ApsResponse<CompareResult>;
  const { marks } = parsed.data;
  const forms: PreparedForm[] = [];
  for (const slug of slugs) {
    const loaded = await loadUniversity(slug);
    if (loaded === null) throw new Error(`the APS index names ${slug} but it has no document`);
    forms.push("entries" in loaded ? loaded : prepare(loaded));
  }
  const learner = learnerOf(percentagesOf(marks));
  const data: ComparedUniversity[] = [];
  for (const form of forms) {
    // The comparison shows no breakdown, so the main scheme's score is computed without one.
    const main = apsScoreOf(form.scheme, marks);
    const judged = judgeUniversity(form, marks, main, learner);
    data.push({
      university_slug: form.university.slug,
      university_name: form.university.name,
      aps_score: main.score,
      maximum: form.scheme.maximum,
      scheme: judged.scheme,
      qualifies_for: judged.qualifies_for,
      qualifications: judged.qualifications,
      near_misses: judged.near_misses,
      other_schemes: judged.other_schemes,
      nsc: judged.nsc,
    });
  }
  const result: CompareResult = {
    data,
    meta: { universities: data.length, qualifies_for_total: data.reduce((n, u) => n + u.qualifies_for.length, 0) },
  };
  return { status: 200, data: parsed.data.view === "summary" ? summaryOf(result) : result };
}
