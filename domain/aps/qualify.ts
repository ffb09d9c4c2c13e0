// Which of a university's qualifications a result qualifies for, and why the others are left out. A
// qualification needs the score to reach its min_aps (on the university's own scale) and every one of its
// requirement clauses met: each compulsory subject, one option of each alternative group, and each general
// requirement ("another language at level 4"). One learner subject meets at most one clause, so a rule like
// "two more subjects at level 4" (the rule twice) needs two different subjects. Requirements that are
// neither compulsory nor in a group are recommendations and are not checked.
import type { ApsQualification, ApsUniversityDocument, Mark } from "./scheme.ts";

export type RequirementOutcome = { subject_slug: string; min_percentage: number; percentage: number | null };

export type QualificationFailure =
  | { kind: "min_aps"; min_aps: number; score: number }
  | ({ kind: "subject" } & RequirementOutcome)
  | { kind: "alternatives"; group: string; options: RequirementOutcome[] }
  | { kind: "rule"; rule: string; min_percentage: number; best: number | null };

export type QualificationOutcome = { id: string; name: string; qualifies: boolean; failures: QualificationFailure[] };

/** One way to meet a clause: one subject at a minimum, or any subject of a rule's class. */
/** `key`: label and bound as text, made once (the key of per-request memos). */
type Option = { label: string; subjects: ReadonlySet<string>; min_percentage: number; key: string };
type Clause = { label: string; group: string | null; options: Option[] };
/** `independent`: no rule and no subject in two clauses, so each clause can be checked on its own (the common case).
 * `signature`: the clauses as text; programmes with the same signature fail the same marks in the same way. */
type Compiled = { clauses: Clause[]; independent: boolean; signature: string };

/** The rule name as it appears in failures and option lists: "@other-language". */
const ruleLabel = (rule: string) => `@${rule}`;

// A qualification's clauses depend only on the (immutable) document: compiled once per qualification object.
const compiled = new WeakMap<ApsQualification, Compiled>();

function clausesOf(qualification: ApsQualification, ruleSubjects: Readonly<Record<string, readonly string[]>>): Compiled {
  let entry = compiled.get(qualification);
  if (!entry) {
    const clauses = compileClauses(qualification, ruleSubjects);
    const subjects = clauses.flatMap((c) => c.options.flatMap((o) => [...o.subjects]));
    const independent = clauses.every((c) => c.options.every((o) => !o.label.startsWith("@"))) && new Set(subjects).size === subjects.length;
    // A group and a single subject of the same name fail differently (alternatives, subject): "group" tells them apart.
    const signature = clauses.map((c) => `${c.group === null ? "" : "group "}${c.label}:${c.options.map((o) => o.key).join("|")}`).join(";");
    entry = { clauses, independent, signature };
    compiled.set(qualification, entry);
  }
  return entry;
}

function compileClauses(qualification: ApsQualification, ruleSubjects: Readonly<Record<string, readonly string[]>>): Clause[] {
  const clauses: Clause[] = [];
  const groups = new Map<string, Option[]>();
  const addToGroup = (group: string, option: Option) => groups.set(group, [...(groups.get(group) ?? []), option]);
  for (const r of qualification.requirements) {
    const option = {
      label: r.subject_slug,
      subjects: new Set([r.subject_slug]),
      min_percentage: r.min_percentage,
      key: `${r.subject_slug} ${r.min_percentage}`,
    };
    if (r.alternative_group !== null) addToGroup(r.alternative_group, option);
    else if (r.is_compulsory) clauses.push({ label: r.subject_slug, group: null, options: [option] });
  }
  const rules: Clause[] = [];
  for (const g of qualification.general_requirements ?? []) {
    const label = ruleLabel(g.rule);
    const option = { label, subjects: new Set(ruleSubjects[g.rule] ?? []), min_percentage: g.min_percentage, key: `${label} ${g.min_percentage}` };
    if (g.alternative_group !== null) addToGroup(g.alternative_group, option);
    else rules.push({ label: ruleLabel(g.rule), group: null, options: [option] });
  }
  for (const [group, options] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) clauses.push({ label: group, group, options });
  // The most accommodating clauses last: when subjects run short, they are the ones reported unmet.
  return [...clauses, ...rules];
}

// A rule's subjects are the document's, so within one set of marks "@other-language at 50%" meets the same
// subjects in every programme that asks for it: remembered per percentages map (one per request), so a
// university's hundred programmes do not each walk the learner's subjects for it.
const ruleMeetings = new WeakMap<ReadonlyMap<string, number>, Map<string, string[]>>();

/** The learner subjects that meet an option (a fractional 59.99 does not meet 60). */
function meeting(option: Option, percentages: ReadonlyMap<string, number>): string[] {
  if (!option.label.startsWith("@")) return (percentages.get(option.label) ?? -1) >= option.min_percentage ? [option.label] : [];
  let memo = ruleMeetings.get(percentages);
  if (!memo) {
    memo = new Map();
    ruleMeetings.set(percentages, memo);
  }
  const key = option.key;
  let met = memo.get(key);
  if (!met) {
    met = [];
    // The learner's subjects (at most 20) against the option's set, never the other way round (a rule's class has ~90).
    for (const [subject, percentage] of percentages) if (percentage >= option.min_percentage && option.subjects.has(subject)) met.push(subject);
    memo.set(key, met);
  }
  return met;
}

/** The learner's best percentage among an option's subjects, or null when the learner takes none of them. */
function bestOf(option: Option, percentages: ReadonlyMap<string, number>): number | null {
  let best: number | null = null;
  for (const [subject, percentage] of percentages) if (option.subjects.has(subject) && (best === null || percentage > best)) best = percentage;
  return best;
}

function failureOf(clause: Clause, percentages: ReadonlyMap<string, number>): QualificationFailure {
  const [only] = clause.options;
  if (clause.group === null && only) {
    if (only.label.startsWith("@")) {
      return { kind: "rule", rule: only.label.slice(1), min_percentage: only.min_percentage, best: bestOf(only, percentages) };
    }
    return { kind: "subject", subject_slug: only.label, min_percentage: only.min_percentage, percentage: percentages.get(only.label) ?? null };
  }
  return {
    kind: "alternatives",
    group: clause.label,
    options: clause.options.map((o) => ({ subject_slug: o.label, min_percentage: o.min_percentage, percentage: bestOf(o, percentages) })),
  };
}

/**
 * Gives each clause a subject of its own where it can (bipartite matching by augmenting paths; the sizes are
 * tiny): the clauses left without one, and which subject each matched clause took.
 */
function matchClauses(candidates: string[][]): { unmatched: number[]; owner: Map<string, number> } {
  // Most marks give every clause a subject of its own at the first try: then no search is needed, and with no
  // clause unmatched nobody reads which subject each took.
  const taken = new Set<string>();
  for (const subjects of candidates) {
    const free = subjects.find((subject) => !taken.has(subject));
    if (free === undefined) return searchMatching(candidates);
    taken.add(free);
  }
  return { unmatched: [], owner: new Map() };
}

function searchMatching(candidates: string[][]): { unmatched: number[]; owner: Map<string, number> } {
  const owner = new Map<string, number>();
  const assign = (clause: number, seen: Set<string>): boolean => {
    for (const subject of candidates[clause] ?? []) {
      if (seen.has(subject)) continue;
      seen.add(subject);
      const holder = owner.get(subject);
      if (holder === undefined || assign(holder, seen)) {
        owner.set(subject, clause);
        return true;
      }
    }
    return false;
  };
  const unmatched = candidates.flatMap((_, clause) => (assign(clause, new Set()) ? [] : [clause]));
  return { unmatched, owner };
}

export function explainQualification(
  qualification: ApsQualification,
  percentages: ReadonlyMap<string, number>,
  score: number,
  ruleSubjects: Readonly<Record<string, readonly string[]>> = {},
): QualificationOutcome {
  const subjects = subjectFailuresOf(clausesOf(qualification, ruleSubjects), percentages);
  const failures: QualificationFailure[] =
    qualification.min_aps !== null && score < qualification.min_aps
      ? [{ kind: "min_aps", min_aps: qualification.min_aps, score }, ...subjects]
      : subjects;
  return { id: qualification.id, name: qualification.name, qualifies: failures.length === 0, failures };
}

/** What a qualification's requirements have in common with others': programmes with the same signature fail
 * the same marks in the same way, so a caller judging many programmes can judge each signature once. */
export function requirementSignatureOf(qualification: ApsQualification, ruleSubjects: Readonly<Record<string, readonly string[]>> = {}): string {
  return clausesOf(qualification, ruleSubjects).signature;
}

/** The subject requirements the marks do not meet (no min_aps failure): explainQualification's failures but that one. */
export function subjectFailuresFor(
  qualification: ApsQualification,
  percentages: ReadonlyMap<string, number>,
  ruleSubjects: Readonly<Record<string, readonly string[]>> = {},
): readonly QualificationFailure[] {
  return subjectFailuresOf(clausesOf(qualification, ruleSubjects), percentages);
}

function subjectFailuresOf({ clauses, independent }: Compiled, percentages: ReadonlyMap<string, number>): QualificationFailure[] {
  const failures: QualificationFailure[] = [];
  if (independent) {
    for (const clause of clauses) {
      let met = false;
      for (const o of clause.options) if ((percentages.get(o.label) ?? -1) >= o.min_percentage) met = true;
      if (!met) failures.push(failureOf(clause, percentages));
    }
    return failures;
  }
  const candidates = clauses.map((clause) => {
    if (clause.options.length === 1) return meeting(clause.options[0] as Option, percentages);
    // A clause's options share no subject but a rule's class may hold one of them: each subject once.
    const met: string[] = [];
    for (const o of clause.options) for (const subject of meeting(o, percentages)) if (!met.includes(subject)) met.push(subject);
    return met;
  });
  const { unmatched, owner } = matchClauses(candidates);
  for (const i of unmatched) {
    // What this clause could still use: the learner's subjects other clauses do not need.
    const free = new Map<string, number>();
    for (const [subject, percentage] of percentages) {
      const holder = owner.get(subject);
      if (holder === undefined || holder === i) free.set(subject, percentage);
    }
    failures.push(failureOf(clauses[i] as Clause, free));
  }
  return failures;
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
  return document.qualifications.map((q) => explainQualification(q, percentages, score, document.rule_subjects ?? {}));
}

/** The ids of the qualifications whose min_aps the score meets and whose subject requirements the marks meet. */
export function qualifiesFor(document: ApsUniversityDocument, marks: readonly Mark[], score: number): string[] {
  return explainQualifications(document, marks, score)
    .filter((outcome) => outcome.qualifies)
    .map((outcome) => outcome.id);
}
