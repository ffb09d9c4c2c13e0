// Near misses: the qualifications a learner does not meet but would with a small change, each with what is
// missing. "Small" is defined once, here:
//   - the APS at most 10% of the scheme's maximum short (exactly 10% is a near miss, one point more is not);
//   - at most one subject requirement unmet (the statutory pass level counts as one: three 20-credit subjects at
//     the pass's threshold where four are needed, and a fourth within one level below it), and that one short by
//     at most one NSC level: a subject the
//     learner takes at the level below the one required (for an alternative group or a rule: one of its
//     options). A subject the learner does not take is never a near miss, nor are two unmet requirements, nor a
//     requirement short by two levels. (A learner subject meets one requirement only: a clause left without a
//     subject of its own is judged on the subjects the other clauses do not need.)
// Both may hold at once (2 points short and Mathematics one level short). Ordered by how little is missing:
// fewer missing items first, then the smaller APS shortfall, then the smaller percentage shortfall, then name.
import type { NscShortfall } from "../nsc-pass.ts";
import { levelOfPercentage } from "../requirements.ts";
import type { QualificationOutcome, RequirementOutcome, SubjectFailure } from "./qualify.ts";

export const NEAR_MISS_APS_SHARE = 0.1;

type MissingOption = { subject_slug: string; need_level: number; have_level: number; need_percentage: number; have_percentage: number };

export type Missing =
  | { kind: "aps"; need: number; have: number }
  | ({ kind: "nsc" } & NscShortfall)
  | ({ kind: "subject" } & MissingOption)
  | { kind: "group"; group: string; options: MissingOption[] };

export type NearMiss = { qualification_id: string; name: string; min_aps: number | null; missing: Missing[] };
// (A near miss's APS shortfall is on the scheme its qualification's min_aps is on.)

/** The option within one level of what it needs, or null (not taken, or two or more levels short). */
function withinOneLevel(option: RequirementOutcome): MissingOption | null {
  if (option.percentage === null) return null;
  const need = levelOfPercentage(option.min_percentage);
  const have = levelOfPercentage(option.percentage);
  if (have < need - 1) return null;
  return {
    subject_slug: option.subject_slug,
    need_level: need,
    have_level: have,
    need_percentage: option.min_percentage,
    have_percentage: option.percentage,
  };
}

/** The APS shortfall as a near miss, or null when it is more than NEAR_MISS_APS_SHARE of the maximum. */
function apsMissing(minAps: number, score: number, maximum: number): Missing | null {
  return minAps - score <= NEAR_MISS_APS_SHARE * maximum + 1e-9 ? { kind: "aps", need: minAps, have: score } : null;
}

/** An unmet subject requirement as a near miss, or null when it is more than one level short. */
function subjectMissing(failure: SubjectFailure): Missing | null {
  switch (failure.kind) {
    case "subject": {
      const option = withinOneLevel(failure);
      return option ? { kind: "subject", ...option } : null;
    }
    case "alternatives": {
      const options = failure.options.flatMap((o) => withinOneLevel(o) ?? []);
      return options.length > 0 ? { kind: "group", group: failure.group, options } : null;
    }
    case "rule": {
      const option = withinOneLevel({ subject_slug: `@${failure.rule}`, min_percentage: failure.min_percentage, percentage: failure.best });
      return option ? { kind: "group", group: `@${failure.rule}`, options: [option] } : null;
    }
  }
}

/** The near miss an outcome is, or null (it qualifies, or more than a small change is missing). */
export function nearMissOf(outcome: QualificationOutcome, minAps: number | null, maximum: number): NearMiss | null {
  if (outcome.qualifies) return null;
  let aps: ApsShortfall | null = null;
  const subjectFailures: SubjectFailure[] = [];
  for (const failure of outcome.failures) {
    if (failure.kind === "min_aps") aps = failure;
    else subjectFailures.push(failure);
  }
  const subjects = subjectShortfalls(subjectFailures);
  return subjects === null ? null : nearMissWith({ id: outcome.id, name: outcome.name, min_aps: minAps }, aps, maximum, subjects);
}

/** What unmet subject requirements are missing as a near miss ([] for none), or null when that is more than a small
 * change. Programmes that share requirements share this, so the items are frozen: one near miss cannot change
 * another's. */
export function subjectShortfalls(failures: readonly SubjectFailure[]): readonly Missing[] | null {
  if (failures.length > 1) return null;
  const missing: Missing[] = [];
  for (const failure of failures) {
    const item = subjectMissing(failure);
    if (item === null) return null;
    if (item.kind === "group") for (const option of item.options) Object.freeze(option);
    missing.push(Object.freeze(item));
  }
  return Object.freeze(missing);
}

/** How far a score is below a minimum (a min_aps failure). */
type ApsShortfall = { min_aps: number; score: number };

/** The near miss of a programme with these subject shortfalls and, where its score is below its minimum, that
 * shortfall; null when it qualifies or is more than a small change short on the APS. */
export function nearMissWith(
  qualification: { id: string; name: string; min_aps: number | null },
  aps: ApsShortfall | null,
  maximum: number,
  subjects: readonly Missing[],
): NearMiss | null {
  const { id, name, min_aps } = qualification;
  if (aps === null) return subjects.length === 0 ? null : { qualification_id: id, name, min_aps, missing: [...subjects] };
  const item = apsMissing(aps.min_aps, aps.score, maximum);
  return item === null ? null : { qualification_id: id, name, min_aps, missing: [item, ...subjects] };
}

const apsShort = (m: NearMiss) => m.missing.reduce((n, item) => (item.kind === "aps" ? n + item.need - item.have : n), 0);
const percentageShort = (m: NearMiss) =>
  m.missing.reduce((n, item) => {
    if (item.kind === "subject" || item.kind === "nsc") return n + item.need_percentage - item.have_percentage;
    if (item.kind === "group") return n + Math.min(...item.options.map((o) => o.need_percentage - o.have_percentage));
    return n;
  }, 0);

export function orderNearMisses(misses: NearMiss[]): NearMiss[] {
  // Each miss's shortfalls are worked out once, not at every comparison.
  return misses
    .map((miss) => ({ miss, aps: apsShort(miss), percentage: percentageShort(miss) }))
    .sort(
      (a, b) =>
        a.miss.missing.length - b.miss.missing.length ||
        a.aps - b.aps ||
        a.percentage - b.percentage ||
        (a.miss.name < b.miss.name ? -1 : a.miss.name > b.miss.name ? 1 : a.miss.qualification_id < b.miss.qualification_id ? -1 : 1),
    )
    .map(({ miss }) => miss);
}
