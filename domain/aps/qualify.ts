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
 * One way to meet a clause: one subject at a minimum, or (`rule`) any subject of a rule's class. `number`: for a
 * subject option, its subject's number; for a rule option, the rule option's own, which options with the same rule,
 * class and minimum share (the learner's memo of what meets it). `subjects`: a rule's class; empty for a subject
 * option, whose subject is its label (a fresh isolate compiles thousands of options: no set each).
 */
type Option = { label: string; rule: boolean; subjects: ReadonlySet<string>; min_percentage: number; number: number };
type Clause = { label: string; group: string | null; options: Option[] };
/** A qualification's requirements compiled into clauses. `independent`: no rule and no subject in two clauses, so
 * each clause can be checked on its own (the common case). */
export type RequirementSet = { clauses: Clause[]; independent: IndependentChecks | null };

/**
 * A route's clauses as plain data, before anything is numbered: what its requirements come to (clauseFormsOf), and
 * what the build writes into the prepared form of a university (judging.ts). One flat array, so a fresh isolate parses
 * one object per set, not one per clause and option: for each clause in order, its group (the alternative group's
 * name, or null for a clause of one option), its number of options, then each option's label and min_percentage. A
 * label is a subject slug, or "@rule" for a general requirement ("@other-language": any subject of the rule's class).
 * `[null, 1, "mathematics", 60, "english", 2, "english-home-language", 50, "english-first-additional-language", 60]`.
 */
export type ClauseForms = (string | number | null)[];
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
    entry = (routes.length === 0 ? [undefined] : routes).map((route) => requirementSetOfForms(clauseFormsOf(qualification, route), ruleSubjects));
    compiled.set(qualification, entry);
  }
  return entry;
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
  return { clauses, independent };
}

/** Whether clauses given as data are independent (no rule, no subject in two clauses): such clauses can be judged as
 * they are, with unmetOfIndependentForms, and need no compiling. */
export function independentForms(forms: Readonly<ClauseForms>): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < forms.length; ) {
    const count = forms[i + 1] as number;
    i += 2;
    for (const end = i + 2 * count; i < end; i += 2) {
      const label = forms[i] as string;
      if (label.charCodeAt(0) === 64 /* "@" */ || seen.has(label)) return false;
      seen.add(label);
    }
  }
  return true;
}

/** The clause that starts at index `i` of clauses given as data, compiled without numbers (for describing it). */
function clauseAt(forms: Readonly<ClauseForms>, i: number, option: (label: string, min_percentage: number) => Option): Clause {
  const group = forms[i] as string | null;
  const count = forms[i + 1] as number;
  const options: Option[] = [];
  for (let o = i + 2; o < i + 2 + 2 * count; o += 2) options.push(option(forms[o] as string, forms[o + 1] as number));
  return { label: group ?? (forms[i + 2] as string), group, options };
}

const unnumbered = (label: string, min_percentage: number): Option => ({ label, rule: false, subjects: NO_CLASS, min_percentage, number: -1 });

/**
 * unmetRequirements for independent clauses given as data (independentForms), read as they are: each clause is met
 * when one of its subjects is at its minimum. The same failures as the compiled set's, in the same order; null when
 * more than `atMost` clauses are unmet.
 */
export function unmetOfIndependentForms(
  forms: Readonly<ClauseForms>,
  percentages: ReadonlyMap<string, number>,
  atMost = Number.POSITIVE_INFINITY,
): SubjectFailure[] | null {
  let unmet: number[] | undefined;
  for (let i = 0; i < forms.length; ) {
    const start = i;
    const end = i + 2 + 2 * (forms[i + 1] as number);
    let met = false;
    for (i += 2; i < end && !met; i += 2) met = (percentages.get(forms[i] as string) ?? -1) >= (forms[i + 1] as number);
    i = end;
    if (met) continue;
    unmet ??= [];
    unmet.push(start);
    if (unmet.length > atMost) return null;
  }
  return unmet === undefined ? [] : unmet.map((start) => failureOf(clauseAt(forms, start, unnumbered), percentages));
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
// A rule's class (the ~90 subjects of "one more subject") as a set and a number, made once per document's list: every
// programme that names the rule shares them. Lists with the same subjects get the same number (from their text,
// hashed once per list), so rule options of different documents share the learner's memo.
const ruleClasses = new WeakMap<readonly string[], { set: ReadonlySet<string>; number: number }>();
const ruleClassNumbers = new Map<string, number>();

function ruleClassOf(subjects: readonly string[]): { set: ReadonlySet<string>; number: number } {
  let entry = ruleClasses.get(subjects);
  if (!entry) {
    entry = { set: new Set(subjects), number: numbered(ruleClassNumbers, subjects.join(" ")) };
    ruleClasses.set(subjects, entry);
  }
  return entry;
}

/** The clauses of one route (undefined: a qualification without routes), as data: the shared requirements and the
 * route's. Compulsory subjects in the document's order, then the alternative groups by name (each group's options in
 * the document's order, subjects before rules), then the general requirements outside a group: the most
 * accommodating clauses last, so when subjects run short, they are the ones reported unmet. */
export function clauseFormsOf(qualification: ApsQualification, route: number | undefined): ClauseForms {
  const singles: ClauseForms = [];
  const groups = new Map<string, ClauseForms>();
  const addToGroup = (group: string, label: string, min: number) => {
    const options = groups.get(group);
    if (options) options.push(label, min);
    else groups.set(group, [label, min]);
  };
  const onRoute = (r: { route?: number }) => r.route === undefined || r.route === route;
  for (const r of qualification.requirements) {
    if (!onRoute(r)) continue;
    if (r.alternative_group !== null) addToGroup(r.alternative_group, r.subject_slug, r.min_percentage);
    else if (r.is_compulsory) singles.push(null, 1, r.subject_slug, r.min_percentage);
  }
  const rules: ClauseForms = [];
  for (const g of qualification.general_requirements ?? []) {
    if (!onRoute(g)) continue;
    if (g.alternative_group !== null) addToGroup(g.alternative_group, ruleLabel(g.rule), g.min_percentage);
    else rules.push(null, 1, ruleLabel(g.rule), g.min_percentage);
  }
  const forms = singles;
  for (const [group, options] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) forms.push(group, options.length / 2, ...options);
  forms.push(...rules);
  return forms;
}

/** A requirement set compiled from its clauses as data: subjects and rule options numbered, a rule's class looked up
 * in `ruleSubjects`. */
export function requirementSetOfForms(forms: Readonly<ClauseForms>, ruleSubjects: Readonly<Record<string, readonly string[]>>): RequirementSet {
  const option = (label: string, min_percentage: number): Option => {
    if (label.charCodeAt(0) !== 64 /* "@" */)
      return { label, rule: false, number: numbered(subjectNumbers, label), subjects: NO_CLASS, min_percentage };
    const { set, number } = ruleClassOf(ruleSubjects[label.slice(1)] ?? NO_SUBJECTS);
    return { label, rule: true, number: numbered(ruleOptionNumbers, `${label} ${min_percentage} ${number}`), subjects: set, min_percentage };
  };
  const clauses: Clause[] = [];
  for (let i = 0; i < forms.length; i += 2 + 2 * (forms[i + 1] as number)) clauses.push(clauseAt(forms, i, option));
  return setOf(clauses);
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
