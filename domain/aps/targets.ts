// What would it take: for a learner still before the final examinations, the smallest raise of their marks that
// makes them qualify for a programme, judged by the calculator's own rules (judgeAlone), searched rather than
// re-implemented. Pure.
//
// "Smallest" is the fewest percentage points raised in total; among equally small changes, the first the search
// reaches (it prefers fewer subjects changed). Only the learner's own subjects are raised, never lowered, never
// above 100, and no subject is added: a programme that needs a subject the learner does not take is not reachable.
//
// The search: qualifying is monotone in every mark (raising one never lowers a score, meets fewer requirements or
// earns a lower pass), so a smallest raise puts each changed mark on a breakpoint, a mark where some rule's outcome
// changes: a requirement's minimum, the pass thresholds (30, 40, 50), an edge of the scheme's bands, a bonus's edge.
// A* search sets each subject once, in the learner's order (so every set of targets is reached once), to a
// breakpoint that serves something the state still fails, guided by a lower bound on what is still to raise that
// never overestimates (stillToRaise). Where a scheme scores every percentage point (a sum or average of percentages),
// the APS part is filled from a state by raising the subject that adds most per point; such a fill is a candidate
// weighed by its total cost. The search stops after MAX_STATES states: it then answers with the best change it found
// (the reason says so) or, with none found, reachable null.
import type { ErrorDetail } from "../../lib/error-detail.ts";
import { type ApsResponse, checkMarks, checkUniversity, invalid, type Loader } from "./validation.ts";
import { describe, isObject } from "./values.ts";
import { judgeAlone, schemeOf } from "./judging.ts";
import type { ApsQualification, ApsUniversityDocument, Mark } from "./scheme.ts";
import { type Breakpoints, breakpointsOf, costOfScore, curveOf, type PointsCurve, rise } from "./target-curves.ts";
import { passRank } from "../nsc-pass.ts";
import { UUID } from "../../lib/vocabulary.ts";
import { z } from "zod";

const MAX_STATES = 2_000;
/** The statutory thresholds (domain/nsc-pass.ts): 30% (teaching language, a failed subject), 40%, 50%. */
const PASS_THRESHOLDS = [30, 40, 50];

export const TargetsRequestSchema = z.object({
  marks: z
    .array(z.object({ subject_slug: z.string(), percentage: z.number().min(0).max(100) }))
    .min(1)
    .max(20)
    .describe("The learner's marks now (e.g. Grade 11 or a trial examination), one per subject."),
  qualification_id: z.string().optional().describe("One programme (GET /v1/data/qualifications). Give this or university_slug."),
  university_slug: z.string().optional().describe("Every programme of this university. Give this or qualification_id."),
});

const TargetSchema = z.object({
  qualification_id: z.string(),
  name: z.string(),
  qualifies_now: z.boolean(),
  /** null: the search stopped at its bound before it found a change (see reason). */
  reachable: z.boolean().nullable(),
  changes: z.array(z.object({ subject_slug: z.string(), from: z.number(), to: z.number() })),
  reason: z.string(),
});
export const TargetsResultSchema = z.object({ data: z.array(TargetSchema) });
type Target = z.infer<typeof TargetSchema>;
export type TargetsResult = z.infer<typeof TargetsResultSchema>;

const percent = (p: number) => `${Math.round(p * 100) / 100}%`;

/** What a judged state still misses, in the terms the search's bound reads: the single-subject minimums not met
 * (by the learner's subject index) and the score missing on the scheme. */
type Shortfall = {
  /** Per unmet requirement, its options the learner takes: one of them must reach its minimum. */
  anyOf: { index: number; min: number }[][];
  missingScore: number;
  /** The pass level still missing: four subjects other than Life Orientation must reach this threshold. */
  passThreshold: number | null;
};

function shortfallOf(judged: ReturnType<typeof judgeAlone>, marks: readonly Mark[]): Shortfall {
  const anyOf: Shortfall["anyOf"] = [];
  let missingScore = 0;
  const indexOf = (slug: string) => marks.findIndex((m) => m.subject_slug === slug);
  for (const f of judged.failures) {
    if (f.kind === "subject" && f.percentage !== null) anyOf.push([{ index: indexOf(f.subject_slug), min: f.min_percentage }]);
    else if (f.kind === "alternatives") {
      const options = f.options.flatMap((o) =>
        o.percentage === null || indexOf(o.subject_slug) < 0 ? [] : [{ index: indexOf(o.subject_slug), min: o.min_percentage }],
      );
      if (options.length > 0) anyOf.push(options);
    } else if (f.kind === "min_aps") missingScore = f.min_aps - judged.exact_score;
  }
  const short = judged.pass.pass !== "none" && passRank(judged.pass.pass) < passRank(judged.passNeeded);
  const passThreshold = short ? (judged.passNeeded === "bachelor" ? 50 : judged.passNeeded === "diploma" ? 40 : null) : null;
  return { anyOf, missingScore, passThreshold };
}

/**
 * A lower bound on the percentage points still to raise from `values`, given what their parent state missed and how
 * far `raised`'s points rose on the way (never more than that): the largest single-subject minimum still unmet, and
 * the cheapest way the score could still rise by what it misses. Never more than the truth, so the first qualifying
 * state the search takes is a smallest one.
 */
function stillToRaise(
  shortfall: Shortfall,
  values: readonly number[],
  rose: number,
  curves: readonly PointsCurve[],
  perPlace: number,
  twentyCredit: readonly boolean[],
): number {
  let bound = 0;
  // A requirement with one option forces its subject up to its minimum: that much is spent whatever else is done,
  // and it raises the score by at most its points' rise there.
  let forced = 0;
  let forcedRise = 0;
  let raised: number[] | null = null;
  for (const options of shortfall.anyOf) {
    const gap = Math.min(...options.map((o) => Math.max(0, o.min - (values[o.index] as number))));
    bound = Math.max(bound, gap);
    const only = options.length === 1 ? options[0] : undefined;
    if (only && gap > 0) {
      raised ??= [...values];
      const from = raised[only.index] as number;
      if (only.min > from) {
        forced += only.min - from;
        forcedRise += rise(curves[only.index] as PointsCurve, from, only.min, perPlace);
        raised[only.index] = only.min;
      }
    }
  }
  if (raised !== null) bound = Math.max(bound, forced + costOfScore(curves, raised, shortfall.missingScore - rose - forcedRise, perPlace));
  if (shortfall.passThreshold !== null) {
    // Four subjects other than Life Orientation at the threshold: the cheapest of those below it close the gap.
    const threshold = shortfall.passThreshold;
    const counted = values.filter((v, i) => twentyCredit[i] && v >= threshold).length;
    const gaps = values.flatMap((v, i) => (twentyCredit[i] && v < threshold ? [threshold - v] : [])).sort((a, b) => a - b);
    const needed = Math.max(0, 4 - counted);
    bound = Math.max(bound, gaps.length < needed ? Number.POSITIVE_INFINITY : gaps.slice(0, needed).reduce((a, b) => a + b, 0));
  }
  return Math.max(bound, costOfScore(curves, values, shortfall.missingScore - rose, perPlace));
}

type State = { cost: number; estimate: number; changed: number; values: number[]; last: number; goal: boolean };

/** A binary heap ordered by cost, then fewer subjects changed, then insertion order. */
class Queue {
  private items: (State & { seq: number })[] = [];
  private seq = 0;
  get size() {
    return this.items.length;
  }
  private less(a: State & { seq: number }, b: State & { seq: number }) {
    // Equal bounds: the state further along first (it reaches a change sooner), then fewer subjects changed.
    return a.cost + a.estimate - (b.cost + b.estimate) || b.cost - a.cost || a.changed - b.changed || a.seq - b.seq;
  }
  push(state: State) {
    const items = this.items;
    items.push({ ...state, seq: this.seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.less(items[parent] as State & { seq: number }, items[i] as State & { seq: number }) <= 0) break;
      [items[parent], items[i]] = [items[i] as State & { seq: number }, items[parent] as State & { seq: number }];
      i = parent;
    }
  }
  pop(): State | undefined {
    const items = this.items;
    const top = items[0];
    const end = items.pop();
    if (items.length > 0 && end) {
      items[0] = end;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l] as State & { seq: number }, items[m] as State & { seq: number }) < 0) m = l;
        if (r < items.length && this.less(items[r] as State & { seq: number }, items[m] as State & { seq: number }) < 0) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i] as State & { seq: number }, items[m] as State & { seq: number }];
        i = m;
      }
    }
    return top;
  }
}

const marksWith = (marks: readonly Mark[], values: readonly number[]): Mark[] =>
  marks.map((m, i) => ({ subject_slug: m.subject_slug, percentage: values[i] as number }));

/**
 * From marks that fail only on the APS: raise the subject that adds most to the exact score per point (the first of
 * equals), by as many points as its gain says the score still misses (at most to 100), until the programme is met;
 * null when no raise adds anything or another rule still fails.
 */
function fillScore(document: ApsUniversityDocument, q: ApsQualification, marks: readonly Mark[], start: number[]): number[] | null {
  const values = [...start];
  for (let round = 0; round < 4 * values.length + 8; round++) {
    const judged = judgeAlone(document, q, marksWith(marks, values));
    if (judged.qualifies) return values;
    const missing = judged.failures.find((f) => f.kind === "min_aps");
    if (!missing || judged.failures.length > 1) return null;
    let best = -1;
    let bestGain = 0;
    values.forEach((v, i) => {
      if (v >= 100) return;
      const trial = [...values];
      trial[i] = Math.min(100, Math.floor(v) + 1);
      const gain = (judgeAlone(document, q, marksWith(marks, trial)).exact_score - judged.exact_score) / ((trial[i] as number) - v);
      if (gain > bestGain + 1e-12) {
        best = i;
        bestGain = gain;
      }
    });
    if (best < 0) return null;
    const now = values[best] as number;
    const points = Math.max(1, Math.ceil((missing.min_aps - judged.exact_score) / bestGain - 1e-9));
    values[best] = Math.min(100, Math.floor(now) + points);
  }
  return null;
}

type Found = { values: number[]; complete: boolean } | { values: null; complete: boolean };

function search(document: ApsUniversityDocument, q: ApsQualification, marks: readonly Mark[]): Found {
  const base = marks.map((m) => m.percentage);
  const points = marks.map((m) => breakpointsOf(document, q, m.subject_slug));
  const anyLinear = points.some((p) => p.linear);
  /** The marks worth raising subject i to, from what a state still fails: a raise fixes failures and never causes one,
   * so a mark that serves none of them serves none of the states below it either. */
  const targetsFor = (i: number, shortfall: Shortfall, judged: ReturnType<typeof judgeAlone>): number[] => {
    const bp = points[i] as Breakpoints;
    const marksFor = new Set(bp.requirement);
    if (shortfall.missingScore > 0) for (const m of bp.score) marksFor.add(m);
    if (judged.pass.pass === "none") for (const m of PASS_THRESHOLDS) marksFor.add(m);
    else if (shortfall.passThreshold !== null && twentyCredit[i]) marksFor.add(shortfall.passThreshold);
    return [...marksFor].sort((a, b) => a - b);
  };
  const scheme = schemeOf(document, q);
  const curves = marks.map((m) => curveOf(scheme, m.subject_slug));
  const places = scheme.selection.reduce((n, slot) => n + slot.count, 0);
  const perPlace = scheme.method === "percentage-average" ? Math.max(1, places) : 1;
  const twentyCredit = marks.map((m) => !document.nsc.ten_credit.includes(m.subject_slug));
  const queue = new Queue();
  queue.push({ cost: 0, estimate: 0, changed: 0, values: base, last: 0, goal: false });
  let best: number[] | null = null;
  let bestCost: number | null = null;
  for (let popped = 0; queue.size > 0; popped++) {
    const state = queue.pop() as State;
    if (state.goal) return { values: state.values, complete: true };
    if (popped >= MAX_STATES) return { values: best, complete: false };
    const judged = judgeAlone(document, q, marksWith(marks, state.values));
    if (judged.qualifies) return { values: state.values, complete: true };
    if (anyLinear && judged.failures.every((f) => f.kind === "min_aps")) {
      const filled = fillScore(document, q, marks, state.values);
      if (filled) {
        const cost = filled.reduce((n, v, i) => n + v - (base[i] as number), 0);
        const changed = filled.filter((v, i) => v !== base[i]).length;
        queue.push({ cost, estimate: 0, changed, values: filled, last: state.values.length, goal: true });
        if (bestCost === null || cost < bestCost) {
          best = filled;
          bestCost = cost;
        }
      }
    }
    // Every state reached from this one still needs at least this much more, less the raise that reaches it.
    const shortfall = shortfallOf(judged, marks);
    // Each subject is raised once, to its final mark, in the learner's order: every set of targets is reached once.
    for (let i = state.last; i < state.values.length; i++) {
      const now = state.values[i] as number;
      for (const next of targetsFor(i, shortfall, judged)) {
        if (next <= now) continue;
        const values = [...state.values];
        values[i] = next;
        const cost = state.cost + next - now;
        const estimate = stillToRaise(shortfall, values, rise(curves[i] as PointsCurve, now, next, perPlace), curves, perPlace, twentyCredit);
        // No better than a change already found: never taken.
        if (bestCost !== null && cost + estimate > bestCost) continue;
        queue.push({
          cost,
          estimate,
          changed: state.changed + 1,
          values,
          last: i + 1,
          goal: false,
        });
      }
    }
  }
  return { values: best, complete: true };
}

/** Why no raise of the learner's own marks can do it, from what still fails with every mark at 100%. */
function unreachableReason(document: ApsUniversityDocument, q: ApsQualification, marks: readonly Mark[]): string | null {
  const judged = judgeAlone(
    document,
    q,
    marks.map((m) => ({ ...m, percentage: 100 })),
  );
  if (judged.qualifies) return null;
  const name = (slug: string) => document.subjects.find((s) => s.slug === slug)?.name ?? slug;
  const reasons: string[] = [];
  for (const f of judged.failures) {
    if (f.kind === "min_aps") reasons.push(`even 100% in every subject you gave scores ${f.score}, below the minimum of ${f.min_aps}`);
    else if (f.kind === "subject") reasons.push(`it needs ${name(f.subject_slug)} at ${percent(f.min_percentage)}, which is not among your subjects`);
    else if (f.kind === "alternatives")
      reasons.push(
        `it needs one of ${f.options.map((o) => `${name(o.subject_slug)} (${percent(o.min_percentage)})`).join(", ")}, none of which is among your subjects`,
      );
    else
      reasons.push(
        `it needs ${f.rule === "other-language" ? "another official language" : "one more subject"} at ${percent(f.min_percentage)}, which none of your other subjects can give`,
      );
  }
  if (reasons.length === 0) reasons.push(`${judged.pass.reason.replace(/\.$/, "")}: it needs a ${judged.passNeeded} pass`);
  return `No raise of your marks can do it: ${reasons.join("; ")}.`;
}

/** One programme's answer. */
export function targetOf(document: ApsUniversityDocument, q: ApsQualification, marks: readonly Mark[]): Target {
  const answer = { qualification_id: q.id, name: q.name };
  if (judgeAlone(document, q, marks).qualifies)
    return { ...answer, qualifies_now: true, reachable: true, changes: [], reason: "You already qualify." };
  const blocked = unreachableReason(document, q, marks);
  if (blocked) return { ...answer, qualifies_now: false, reachable: false, changes: [], reason: blocked };
  const found = search(document, q, marks);
  if (found.values === null)
    return {
      ...answer,
      qualifies_now: false,
      reachable: null,
      changes: [],
      reason: `The search stopped after ${MAX_STATES} steps without finding a change (every mark at 100% would qualify).`,
    };
  const values = found.values;
  const changes = marks.flatMap((m, i) =>
    values[i] === m.percentage ? [] : [{ subject_slug: m.subject_slug, from: m.percentage, to: values[i] as number }],
  );
  const said = changes.map(
    (c) => `${document.subjects.find((s) => s.slug === c.subject_slug)?.name ?? c.subject_slug} from ${percent(c.from)} to ${percent(c.to)}`,
  );
  const caveat = found.complete ? "" : ` (the search stopped after ${MAX_STATES} steps: a smaller change may exist)`;
  return { ...answer, qualifies_now: false, reachable: true, changes, reason: `Raise ${said.join(", ")}${caveat}.` };
}

const FIELDS = ["marks", "qualification_id", "university_slug"];

/** POST /v1/data/aps-calculator/targets, minus HTTP. `universityOf`: the university of a qualification id, or null. */
export async function answerTargetsRequest(
  body: unknown,
  loadUniversity: Loader,
  universityOf: (qualificationId: string) => Promise<string | null>,
): Promise<ApsResponse<TargetsResult>> {
  const refuse = (details: ErrorDetail[]) => invalid(details) as ApsResponse<TargetsResult>;
  if (!isObject(body))
    return refuse([{ path: "body", message: `must be a JSON object with marks and qualification_id or university_slug, not ${describe(body)}` }]);
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body))
    if (!FIELDS.includes(key)) details.push({ path: key, message: `is not a field of this request (${FIELDS.join(", ")})` });
  const { qualification_id: id, university_slug: slug } = body;
  let document: ApsUniversityDocument | null = null;
  let only: string | null = null;
  if ((id === undefined) === (slug === undefined)) {
    details.push({
      path: id === undefined ? "qualification_id" : "university_slug",
      message: "give exactly one of qualification_id and university_slug",
    });
  } else if (id !== undefined) {
    if (typeof id !== "string" || !UUID.test(id))
      details.push({
        path: "qualification_id",
        message: `must be a qualification id (a UUID), not ${typeof id === "string" ? JSON.stringify(id.slice(0, 40)) : describe(id)}`,
      });
    else {
      const owner = await universityOf(id);
      if (owner === null)
        details.push({
          path: "qualification_id",
          message: `${JSON.stringify(id)} is not a known qualification id (see GET /v1/data/qualifications)`,
        });
      else {
        document = await loadUniversity(owner);
        only = id;
      }
    }
  } else {
    document = await checkUniversity(slug, loadUniversity, details);
  }
  const marks = checkMarks(body.marks, document ? new Set(document.subjects.map((s) => s.slug)) : null, details);
  if (details.length > 0 || document === null) return refuse(details);
  const chosen = only === null ? document.qualifications : document.qualifications.filter((q) => q.id === only);
  return { status: 200, data: { data: chosen.map((q) => targetOf(document, q, marks)) } };
}
