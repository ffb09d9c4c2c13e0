// Near misses: the qualifications a learner does not meet but would with a small change, each with what is
// missing. "Small" is defined once, here:
//   - the APS at most 10% of the scheme's maximum short (exactly 10% is a near miss, one point more is not);
//   - at most one subject requirement unmet, and that one short by at most one NSC level: a subject the
//     learner takes at the level below the one required (for an alternative group or a rule: one of its
//     options). A subject the learner does not take is never a near miss, nor are two unmet requirements, nor a
//     requirement short by two levels. (A learner subject meets one requirement only: a clause left without a
//     subject of its own is judged on the subjects the other clauses do not need.)
// Both may hold at once (2 points short and Mathematics one level short). Ordered by how little is missing:
// fewer missing items first, then the smaller APS shortfall, then the smaller percentage shortfall, then name.
import { levelOfPercentage } from "../requirements.ts";
import type { QualificationFailure, QualificationOutcome, RequirementOutcome } from "./qualify.ts";

export const NEAR_MISS_APS_SHARE = 0.1;

type MissingOption = { subject_slug: string; need_level: number; have_level: number; need_percentage: number; have_percentage: number };

type Missing =
  | { kind: "aps"; need: number; have: number }
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

function missingOf(failure: QualificationFailure, maximum: number): Missing | null {
  switch (failure.kind) {
    case "min_aps":
      return failure.min_aps - failure.score <= NEAR_MISS_APS_SHARE * maximum + 1e-9
        ? { kind: "aps", need: failure.min_aps, have: failure.score }
        : null;
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
  const subjectFailures = outcome.failures.filter((f) => f.kind !== "min_aps");
  if (subjectFailures.length > 1) return null;
  const missing: Missing[] = [];
  for (const failure of outcome.failures) {
    const item = missingOf(failure, maximum);
    if (item === null) return null;
    missing.push(item);
  }
  return { qualification_id: outcome.id, name: outcome.name, min_aps: minAps, missing };
}

const apsShort = (m: NearMiss) => m.missing.reduce((n, item) => (item.kind === "aps" ? n + item.need - item.have : n), 0);
const percentageShort = (m: NearMiss) =>
  m.missing.reduce((n, item) => {
    if (item.kind === "subject") return n + item.need_percentage - item.have_percentage;
    if (item.kind === "group") return n + Math.min(...item.options.map((o) => o.need_percentage - o.have_percentage));
    return n;
  }, 0);

export function orderNearMisses(misses: NearMiss[]): NearMiss[] {
  return [...misses].sort(
    (a, b) =>
      a.missing.length - b.missing.length ||
      apsShort(a) - apsShort(b) ||
      percentageShort(a) - percentageShort(b) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : a.qualification_id < b.qualification_id ? -1 : 1),
  );
}
