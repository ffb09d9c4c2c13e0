// Which of a university's qualifications a result qualifies for, and why the others are left out. A
// qualification needs the score to reach its min_aps (on the university's own scale) and every one of its
// requirement clauses met: each compulsory subject, one option of each alternative group, and each general
// requirement ("another language at level 4"). One learner subject meets at most one clause, so a rule like
// "two more subjects at level 4" (the rule twice) needs two different subjects. Requirements that are
// neither compulsory nor in a group are recommendations and are not checked.
import type { ApsQualification, ApsUniversityDocument, Mark } from "./scheme.ts";

export type RequirementOutcome = { subject_slug: string; min_percentage: number; percentage: number | null };

type QualificationFailure =
  | { kind: "min_aps"; min_aps: number; score: number }
  | ({ kind: "subject" } & RequirementOutcome)
  | { kind: "alternatives"; group: string; options: RequirementOutcome[] }
  | { kind: "rule"; rule: string; min_percentage: number; best: number | null };

/** A failure of a subject requirement (every kind but min_aps). */
export type SubjectFailure = Exclude<QualificationFailure, { kind: "min_aps" }>;

export type QualificationOutcome = { id: string; name: string; qualifies: boolean; failures: QualificationFailure[] };

/**
 * One way to meet a clause: one subject at a minimum, or (`rule`) any subject of a rule's class. `key`: label and
 * minimum as text, made once (a requirement set's signature is made of them). `number`: for a subject option, its
 * subject's number; for a rule option, the rule option's own, which options with the same rule, class and minimum
 * share (the learner's memo of what meets it). `subjects`: a rule's class; empty for a subject option, whose subject
 * is its label (a fresh isolate compiles thousands of options: no set each).
 */
type Option = { label: string; rule: boolean; subjects: ReadonlySet<string>; min_percentage: number; key: string; number: number };
type Clause = { label: string; group: string | null; options: Option[] };
/** A qualification's requirements compiled into clauses. `independent`: no rule and no subject in two clauses, so
 * each clause can be checked on its own (the common case). `signature`: the clauses as text; programmes with the
 * same signature fail the same marks in the same way, so a caller judging many programmes judges each set once. */
export type RequirementSet = { clauses: Clause[]; independent: IndependentChecks | null; signature: string };
/** An independent set's clauses as flat arrays, for the check every request makes of every set: option i needs
 * subject number subjects[i] at minimums[i]; clause c's options end before clauseEnds[c]. */
type IndependentChecks = { subjects: Int32Array; minimums: Float64Array; clauseEnds: Int32Array; highest: number };

// Every subject a requirement names gets a number, so the matcher reads a learner's percentage from an array rather
// than looking a slug up in a map: the set of subjects is the catalogue's, so the numbering stays small.
const subjectNumbers = new Map<string, number>();

// Rule options get numbers too (the same rule, class and minimum, the same number): the learner's memo of what meets
// each is an array.
const ruleOptionNumbers = new Map<string, number>();

/** The number of a key among `numbers`: a new one, the next, for a key not seen before. */
function numbered(numbers: Map<string, number>, key: string): number {
  let n = numbers.get(key);
  if (n === undefined) {
    n = numbers.size;
    numbers.set(key, n);
  }
  return n;
}

/**
 * A learner's marks as the matcher reads them: by slug, and by subject number. `ruleMeetings`: per rule option (by
 * its number), the learner's subjects that meet it, found the first time a programme asks ("@other-language at 50%"
 * meets the same subjects in every programme that asks for it).
 */
export type Learner = { percentages: ReadonlyMap<string, number>; bySubject: Float64Array; ruleMeetings: (string[] | undefined)[] };

export function learnerOf(percentages: ReadonlyMap<string, number>): Learner {
  const bySubject = new Float64Array(subjectNumbers.size).fill(-1);
  for (const [slug, percentage] of percentages) {
    const n = subjectNumbers.get(slug);
    if (n !== undefined) bySubject[n] = percentage;
  }
  return { percentages, bySubject, ruleMeetings: [] };
}

/** The learner's percentage in an option's one subject, or -1. (A subject numbered after the learner was read, by a
 * requirement compiled since, is looked up by slug.) */
const percentageFor = (learner: Learner, option: Option): number =>
  option.number < learner.bySubject.length ? (learner.bySubject[option.number] as number) : (learner.percentages.get(option.label) ?? -1);

/** The rule name as it appears in failures and option lists: "@other-language". */
const ruleLabel = (rule: string) => `@${rule}`;

// A qualification's clauses depend only on the (immutable) document: compiled once per qualification object.
const compiled = new WeakMap<ApsQualification, RequirementSet[]>();

/** The numbers of a qualification's alternative routes ([] when it has none). */
export function routesOf(qualification: ApsQualification): number[] {
  const routes = new Set<number>();
  for (const r of qualification.requirements) if (r.route !== undefined) routes.add(r.route);
  for (const g of qualification.general_requirements ?? []) if (g.route !== undefined) routes.add(g.route);
  return [...routes].sort((a, b) => a - b);
}

/**
 * A qualification's requirement sets: one, or one per alternative route (each with the requirements every route
 * shares). The marks meet the qualification's subject requirements when they meet any one set.
 */
function requirementSetsOf(qualification: ApsQualification, ruleSubjects: Readonly<Record<string, readonly string[]>>): RequirementSet[] {
  let entry = compiled.get(qualification);
  if (!entry) {
    const routes = routesOf(qualification);
    entry = (routes.length === 0 ? [undefined] : routes).map((route) => setOf(compileClauses(qualification, ruleSubjects, route)));
    compiled.set(qualification, entry);
  }
  return entry;
}

/** One route's requirement set (route undefined: a qualification without routes), compiled afresh. */
export function requirementSetFor(
  qualification: ApsQualification,
  ruleSubjects: Readonly<Record<string, readonly string[]>>,
  route: number | undefined,
): RequirementSet {
  return setOf(compileClauses(qualification, ruleSubjects, route));
}

/** The requirement set of a qualification without alternative routes (its first route's, where it has some). */
export function requirementSetOf(qualification: ApsQualification, ruleSubjects: Readonly<Record<string, readonly string[]>>): RequirementSet {
  return requirementSetsOf(qualification, ruleSubjects)[0] as RequirementSet;
}

function setOf(clauses: Clause[]): RequirementSet {
  // Independent: no rule (a rule's class holds ~90 subjects) and no subject in two clauses.
  let independent: IndependentChecks | null = null;
  if (clauses.every((c) => c.options.every((o) => !o.rule))) {
    const subjects = clauses.flatMap((c) => c.options.map((o) => o.label));
    if (new Set(subjects).size === subjects.length) independent = checksOf(clauses);
  }
  // A group and a single subject of the same name fail differently (alternatives, subject): "group" tells them apart.
  const signature = clauses.map((c) => `${c.group === null ? "" : "group "}${c.label}:${c.options.map((o) => o.key).join("|")}`).join(";");
  return { clauses, independent, signature };
}

/** Whether clause c of an independent set is met: array reads, or look-ups by slug for a learner read before a
 * subject of the set was numbered. */
function independentClauseMet(checks: IndependentChecks, c: number, clause: Clause, learner: Learner): boolean {
  const { bySubject } = learner;
  if (checks.highest >= bySubject.length) return clause.options.some((o) => percentageFor(learner, o) >= o.min_percentage);
  const { subjects, minimums, clauseEnds } = checks;
  for (let o = c === 0 ? 0 : (clauseEnds[c - 1] as number); o < (clauseEnds[c] as number); o++) {
    if ((bySubject[subjects[o] as number] as number) >= (minimums[o] as number)) return true;
  }
  return false;
}

function checksOf(clauses: readonly Clause[]): IndependentChecks {
  // Filled by plain loops: TypedArray.from with a mapping function is slow on a fresh isolate, and every
  // qualification's set is made once there.
  let count = 0;
  for (const c of clauses) count += c.options.length;
  const subjects = new Int32Array(count);
  const minimums = new Float64Array(count);
  const clauseEnds = new Int32Array(clauses.length);
  let o = 0;
  let highest = -1;
  clauses.forEach((c, i) => {
    for (const option of c.options) {
      subjects[o] = option.number;
      minimums[o] = option.min_percentage;
      if (option.number > highest) highest = option.number;
      o++;
    }
    clauseEnds[i] = o;
  });
  return { subjects, minimums, clauseEnds, highest };
}

const NO_SUBJECTS: readonly string[] = [];
const NO_CLASS: ReadonlySet<string> = new Set();
// A rule's class (the ~90 subjects of "one more subject") as a set and as text, made once per document's list: every
// programme that names the rule shares them.
const ruleClasses = new WeakMap<readonly string[], { set: ReadonlySet<string>; text: string }>();

function ruleClassOf(subjects: readonly string[]): { set: ReadonlySet<string>; text: string } {
  let entry = ruleClasses.get(subjects);
  if (!entry) {
    entry = { set: new Set(subjects), text: subjects.join(" ") };
    ruleClasses.set(subjects, entry);
  }
  return entry;
}

/** The clauses of one route (undefined: a qualification without routes): the shared requirements and the route's. */
function compileClauses(
  qualification: ApsQualification,
  ruleSubjects: Readonly<Record<string, readonly string[]>>,
  route: number | undefined,
): Clause[] {
  const clauses: Clause[] = [];
  const groups = new Map<string, Option[]>();
  const addToGroup = (group: string, option: Option) => {
    const options = groups.get(group);
    if (options) options.push(option);
    else groups.set(group, [option]);
  };
  const onRoute = (r: { route?: number }) => r.route === undefined || r.route === route;
  for (const r of qualification.requirements) {
    if (!onRoute(r)) continue;
    const option = {
      label: r.subject_slug,
      rule: false,
      number: numbered(subjectNumbers, r.subject_slug),
      subjects: NO_CLASS,
      min_percentage: r.min_percentage,
      key: `${r.subject_slug} ${r.min_percentage}`,
    };
    if (r.alternative_group !== null) addToGroup(r.alternative_group, option);
    else if (r.is_compulsory) clauses.push({ label: r.subject_slug, group: null, options: [option] });
  }
  const rules: Clause[] = [];
  for (const g of qualification.general_requirements ?? []) {
    if (!onRoute(g)) continue;
    const label = ruleLabel(g.rule);
    const { set, text } = ruleClassOf(ruleSubjects[g.rule] ?? NO_SUBJECTS);
    const key = `${label} ${g.min_percentage}`;
    const option = {
      label,
      rule: true,
      number: numbered(ruleOptionNumbers, `${key} ${text}`),
      subjects: set,
      min_percentage: g.min_percentage,
      key,
    };
    if (g.alternative_group !== null) addToGroup(g.alternative_group, option);
    else rules.push({ label: ruleLabel(g.rule), group: null, options: [option] });
  }
  for (const [group, options] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) clauses.push({ label: group, group, options });
  // The most accommodating clauses last: when subjects run short, they are the ones reported unmet.
  return [...clauses, ...rules];
}

/** The learner subjects that meet an option (a fractional 59.99 does not meet 60). */
function meeting(option: Option, learner: Learner): string[] {
  if (!option.rule) return percentageFor(learner, option) >= option.min_percentage ? [option.label] : [];
  let met = learner.ruleMeetings[option.number];
  if (met === undefined) {
    met = [];
    // The learner's subjects (at most 20) against the option's set, never the other way round (a rule's class has ~90).
    for (const [subject, percentage] of learner.percentages)
      if (percentage >= option.min_percentage && option.subjects.has(subject)) met.push(subject);
    learner.ruleMeetings[option.number] = met;
  }
  return met;
}

/** The learner's best percentage among an option's subjects, or null when the learner takes none of them. */
function bestOf(option: Option, percentages: ReadonlyMap<string, number>): number | null {
  if (!option.rule) return percentages.get(option.label) ?? null;
  let best: number | null = null;
  for (const [subject, percentage] of percentages) if (option.subjects.has(subject) && (best === null || percentage > best)) best = percentage;
  return best;
}

function failureOf(clause: Clause, percentages: ReadonlyMap<string, number>): SubjectFailure {
  const [only] = clause.options;
  if (clause.group === null && only) {
    if (only.rule) {
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
 * Whether the first free subject of each clause, clause by clause, gives every clause a subject of its own: true
 * for most marks that meet a set, and then no search is needed and nothing is built.
 */
function firstFitMeetsAll(clauses: readonly Clause[], learner: Learner): boolean {
  const taken: string[] = [];
  for (const clause of clauses) {
    let free: string | undefined;
    for (const o of clause.options) {
      if (!o.rule) {
        if (percentageFor(learner, o) >= o.min_percentage && !taken.includes(o.label)) free = o.label;
      } else {
        free = meeting(o, learner).find((subject) => !taken.includes(subject));
      }
      if (free !== undefined) break;
    }
    if (free === undefined) return false;
    taken.push(free);
  }
  return true;
}

/**
 * Gives each clause a subject of its own where it can (bipartite matching by augmenting paths; the sizes are
 * tiny): the clauses left without one, and which subject each matched clause took.
 */
function matchClauses(candidates: string[][]): { unmatched: number[]; owner: Map<string, number> } {
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
  // Any one route suffices: the route with the fewest unmet requirements stands (the first of equals).
  const learner = learnerOf(percentages);
  const subjects = requirementSetsOf(qualification, ruleSubjects)
    .map((set) => unmetRequirements(set, learner) ?? [])
    .reduce((best, unmet) => (unmet.length < best.length ? unmet : best));
  const failures: QualificationFailure[] =
    qualification.min_aps !== null && score < qualification.min_aps
      ? [{ kind: "min_aps", min_aps: qualification.min_aps, score }, ...subjects]
      : subjects;
  return { id: qualification.id, name: qualification.name, qualifies: failures.length === 0, failures };
}

/**
 * The subject requirements the marks do not meet (no min_aps failure): explainQualification's failures but that one.
 * `atMost`: a caller that only needs to know there are more than this many (the near-miss rule stops at one) gets
 * null instead, without the failures being described.
 */
export function unmetRequirements(
  { clauses, independent }: RequirementSet,
  learner: Learner,
  atMost = Number.POSITIVE_INFINITY,
): SubjectFailure[] | null {
  const { percentages } = learner;
  if (independent) {
    // Unmet clauses are counted before any is described: most programmes a learner misses, they miss by several.
    let unmet: number[] | undefined;
    for (let c = 0; c < clauses.length; c++) {
      const met = independentClauseMet(independent, c, clauses[c] as Clause, learner);
      if (met) continue;
      unmet ??= [];
      unmet.push(c);
      if (unmet.length > atMost) return null;
    }
    return unmet === undefined ? [] : unmet.map((i) => failureOf(clauses[i] as Clause, percentages));
  }
  if (firstFitMeetsAll(clauses, learner)) return [];
  const candidates = clauses.map((clause) => {
    if (clause.options.length === 1) return meeting(clause.options[0] as Option, learner);
    // A clause's options share no subject but a rule's class may hold one of them: each subject once.
    const met: string[] = [];
    for (const o of clause.options) for (const subject of meeting(o, learner)) if (!met.includes(subject)) met.push(subject);
    return met;
  });
  const { unmatched, owner } = matchClauses(candidates);
  if (unmatched.length > atMost) return null;
  return unmatched.map((i) => {
    // What this clause could still use: the learner's subjects other clauses do not need.
    const free = new Map<string, number>();
    for (const [subject, percentage] of percentages) {
      const holder = owner.get(subject);
      if (holder === undefined || holder === i) free.set(subject, percentage);
    }
    return failureOf(clauses[i] as Clause, free);
  });
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
