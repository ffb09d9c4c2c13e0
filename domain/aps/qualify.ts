// Which of a university's qualifications a result qualifies for, and why the others are left out. A
// qualification needs the score to reach its min_aps (on the university's own scale), every compulsory
// subject requirement, and one requirement of each alternative group. Requirements that are neither
// compulsory nor in a group are recommendations and are not checked.
import type { ApsQualification, ApsRequirement, ApsUniversityDocument, Mark } from "./scheme.ts";

export type RequirementOutcome = { subject_slug: string; min_percentage: number; percentage: number | null };

export type QualificationFailure =
  | { kind: "min_aps"; min_aps: number; score: number }
  | ({ kind: "subject" } & RequirementOutcome)
  | { kind: "alternatives"; group: string; options: RequirementOutcome[] };

export type QualificationOutcome = { id: string; name: string; qualifies: boolean; failures: QualificationFailure[] };

/** Met when the learner has the subject at or above min_percentage (a fractional 59.99 does not meet 60). */
function outcomeOf(requirement: ApsRequirement, percentages: ReadonlyMap<string, number>) {
  const percentage = percentages.get(requirement.subject_slug) ?? null;
  const outcome: RequirementOutcome = {
    subject_slug: requirement.subject_slug,
    min_percentage: requirement.min_percentage,
    percentage,
  };
  return { outcome, met: percentage !== null && percentage >= requirement.min_percentage };
}

export function explainQualification(
  qualification: ApsQualification,
  percentages: ReadonlyMap<string, number>,
  score: number,
): QualificationOutcome {
  const failures: QualificationFailure[] = [];
  if (score < qualification.min_aps) failures.push({ kind: "min_aps", min_aps: qualification.min_aps, score });
  const groups = new Map<string, ApsRequirement[]>();
  for (const requirement of qualification.requirements) {
    if (requirement.alternative_group !== null) {
      const members = groups.get(requirement.alternative_group) ?? [];
      members.push(requirement);
      groups.set(requirement.alternative_group, members);
    } else if (requirement.is_compulsory) {
      const { outcome, met } = outcomeOf(requirement, percentages);
      if (!met) failures.push({ kind: "subject", ...outcome });
    }
  }
  for (const [group, members] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const results = members.map((member) => outcomeOf(member, percentages));
    if (!results.some((r) => r.met)) failures.push({ kind: "alternatives", group, options: results.map((r) => r.outcome) });
  }
  return { id: qualification.id, name: qualification.name, qualifies: failures.length === 0, failures };
}

export function percentagesOf(marks: readonly Mark[]): Map<string, number> {
  const percentages = new Map<string, number>();
  // With a repeated subject (the request rejects those; direct callers might not), the best mark stands.
  for (const mark of marks) percentages.set(mark.subject_slug, Math.max(mark.percentage, percentages.get(mark.subject_slug) ?? -Infinity));
  return percentages;
}

/** Every qualification of the university, in the document's order, with what it failed on (if anything). */
export function explainQualifications(document: ApsUniversityDocument, marks: readonly Mark[], score: number): QualificationOutcome[] {
  const percentages = percentagesOf(marks);
  return document.qualifications.map((q) => explainQualification(q, percentages, score));
}

/** The ids of the qualifications whose min_aps the score meets and whose subject requirements the marks meet. */
export function qualifiesFor(document: ApsUniversityDocument, marks: readonly Mark[], score: number): string[] {
  return explainQualifications(document, marks, score)
    .filter((outcome) => outcome.qualifies)
    .map((outcome) => outcome.id);
}
