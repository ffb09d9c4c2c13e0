// Judging marks at one university by its own rules: the scores on each of its schemes, what the marks qualify for
// (minimum APS, subject requirements, the statutory pass the programme's type needs) and the near misses. The
// single calculator, the comparison and targets all judge with this module, so they cannot disagree.
import { apsScoreOf, scorerOf, type ApsComputation } from "./engine.ts";
import { type Missing, NEAR_MISS_APS_SHARE, type NearMiss, nearMissWith, orderNearMisses, subjectShortfalls } from "./near-miss.ts";
import { type NscContext, type NscPass, type NscPassResult, nscPassOf, NSC_SOURCES, nscShortfall, PASS_FOR_TYPE, passRank } from "../nsc-pass.ts";
import type { QualificationType } from "../../lib/vocabulary.ts";
import {
  type ClauseForms,
  clauseFormsOf,
  explainQualification,
  independentForms,
  type Learner,
  learnerOf,
  percentagesOf,
  type QualificationOutcome,
  type RequirementSet,
  requirementSetOfForms,
  routesOf,
  unmetOfIndependentForms,
  unmetRequirements,
} from "./qualify.ts";
import type { ApsNscFacts, ApsQualification, ApsScheme, ApsUniversityDocument, Mark } from "./scheme.ts";

/**
 * A programme's required subjects as lists to pick from: each compulsory subject alone, and each alternative group's
 * options in the document's order (every route's: the score counts what any route names). Where a scheme counts
 * required subjects (UCT, Wits), the subjects counted are those of each list the learner takes, a group's best (the
 * first of equals).
 */
function countedListsOf(q: ApsQualification): string[][] {
  const lists: string[][] = [];
  const groups = new Map<string, string[]>();
  for (const r of q.requirements) {
    if (r.alternative_group === null) {
      if (r.is_compulsory) lists.push([r.subject_slug]);
    } else {
      const group = groups.get(r.alternative_group);
      if (group) group.push(r.subject_slug);
      else groups.set(r.alternative_group, [r.subject_slug]);
    }
  }
  return [...lists, ...groups.values()];
}

/** The subjects a programme requires that the learner takes: from each of its lists (countedListsOf), the best. */
function requiredSubjectsOf(lists: readonly (readonly string[])[], percentages: ReadonlyMap<string, number>): Set<string> {
  const required = new Set<string>();
  for (const list of lists) {
    let best: string | undefined;
    let bestPercentage = -1;
    for (const slug of list) {
      const percentage = percentages.get(slug);
      if (percentage !== undefined && percentage > bestPercentage) {
        best = slug;
        bestPercentage = percentage;
      }
    }
    if (best !== undefined) required.add(best);
  }
  return required;
}

type Scores = Pick<ApsComputation, "score" | "exact_score">;

/**
 * A university's document prepared for judging many requests, as plain data: what the build writes for the
 * comparison (`_internal/aps-compare.json`, build/internal-documents.ts), and what `preparedFormOf` makes of a
 * document at run time for the single calculator; both are judged by the same code below. Programmes that share
 * requirements and a scheme share one requirement set (one look at the marks, one score where the scheme counts
 * required subjects), written as its clauses (qualify.ts, ClauseForms): 828 sets (one per route) among the 1,865
 * programmes.
 */
export type PreparedForm = {
  university: { slug: string; name: string };
  /** The main scheme, then the variants by id: an entry's `scheme` is an index into [scheme, ...variants]. */
  scheme: ApsScheme;
  variants: ApsScheme[];
  nsc: ApsNscFacts;
  /** The subjects of each rule the sets name. */
  rule_subjects: Record<string, string[]>;
  /** The distinct requirement sets: the clauses, `independent` where no clause has a rule and no subject is in two
   * clauses (qualify.ts, independentForms: read as they are, never compiled), and where the set's scheme counts
   * required subjects, the lists the subjects counted are picked from (countedListsOf). */
  sets: { clauses: ClauseForms; independent?: true; counted?: string[][] }[];
  /** Each programme in the document's order, as an array (a fresh isolate parses 1,865 of them): its id, name,
   * min_aps and scheme id (what `qualifications` lists for it), the index of its scheme, its type (the pass it
   * needs), and its sets: one, or one per alternative route (any one suffices). */
  entries: EntryForm[];
};

type EntryForm = [
  id: string,
  name: string,
  min_aps: number | null,
  aps_scheme: string,
  scheme: number,
  type: QualificationType,
  ...sets: [number, ...number[]],
];

/** What `qualifications` lists for a programme that qualifies. */
type Named = { id: string; name: string; min_aps: number | null; aps_scheme: string };

/** Where an entry's sets begin. */
const SETS = 6;

/** The prepared form of a document (pure: the build writes it, the single calculator computes it per isolate). */
export function preparedFormOf(document: ApsUniversityDocument): PreparedForm {
  const { scheme } = document;
  const variants = document.variants ?? [];
  const schemes = [scheme, ...variants];
  const setIndex = new Map<string, number>();
  const sets: PreparedForm["sets"] = [];
  const usedRules = new Set<string>();
  const entries = document.qualifications.map((q): EntryForm => {
    const variant = q.scheme === undefined ? -1 : variants.findIndex((v) => v.id === q.scheme);
    const schemeIndex = variant + 1;
    const qScheme = schemes[schemeIndex] as ApsScheme;
    // Programmes whose requirements are written the same (and on one scheme) share one set: their text is the key.
    const text = JSON.stringify([q.requirements, q.general_requirements ?? []]);
    const routes = routesOf(q);
    const indices = (routes.length === 0 ? [undefined] : routes).map((route) => {
      const key = `${qScheme.id}\n${route ?? ""}\n${text}`;
      let index = setIndex.get(key);
      if (index === undefined) {
        index = sets.length;
        setIndex.set(key, index);
        const clauses = clauseFormsOf(q, route);
        for (const item of clauses) if (typeof item === "string" && item.startsWith("@")) usedRules.add(item.slice(1));
        sets.push({
          clauses,
          ...(independentForms(clauses) ? { independent: true as const } : {}),
          ...(qScheme.required_subjects_counted ? { counted: countedListsOf(q) } : {}),
        });
      }
      return index;
    }) as [number, ...number[]];
    return [q.id, q.name, q.min_aps, q.scheme ?? scheme.id, schemeIndex, q.qualification_type, ...indices];
  });
  const rules: Readonly<Record<string, readonly string[]>> = document.rule_subjects ?? {};
  const rule_subjects: Record<string, string[]> = {};
  for (const rule of [...usedRules].sort()) rule_subjects[rule] = [...(rules[rule] ?? [])];
  return {
    university: { slug: document.university.slug, name: document.university.name },
    scheme,
    variants,
    nsc: document.nsc,
    rule_subjects,
    sets,
    entries,
  };
}

/** A prepared form ready to judge with: its schemes in an array, each set compiled the first time a learner's marks
 * need it (a fresh isolate compiles only what its first request reads), the statutory minimum's context. */
type Prepared = {
  form: PreparedForm;
  schemes: ApsScheme[];
  sets: (RequirementSet | undefined)[];
  named: (Named | undefined)[];
  /** What the statutory minimum reads, and a key that is the same for universities whose rules are the same. */
  nsc: NscContext;
  nscKey: string;
};

// Forms are immutable and kept per isolate (functions/assets.ts), as are documents: each is readied once.
const readied = new WeakMap<PreparedForm, Prepared>();
const formsOf = new WeakMap<ApsUniversityDocument, PreparedForm>();

/** The prepared form of a document, made once per document object. */
export function prepare(document: ApsUniversityDocument): PreparedForm {
  let form = formsOf.get(document);
  if (!form) {
    form = preparedFormOf(document);
    formsOf.set(document, form);
  }
  return form;
}

const nscContexts = new WeakMap<ApsNscFacts, NscContext>();

function nscContextOf(facts: ApsNscFacts): NscContext {
  let context = nscContexts.get(facts);
  if (!context) {
    context = {
      homeLanguages: new Set(facts.home_languages),
      tenCredit: new Set(facts.ten_credit),
      teachingLanguages: new Set(facts.teaching_language_subjects),
      teachingLanguageName: facts.teaching_language_name,
    };
    nscContexts.set(facts, context);
  }
  return context;
}

function ready(form: PreparedForm): Prepared {
  let entry = readied.get(form);
  if (!entry) {
    const facts = form.nsc;
    entry = {
      form,
      schemes: [form.scheme, ...form.variants],
      sets: new Array(form.sets.length),
      named: new Array(form.entries.length),
      nsc: nscContextOf(facts),
      nscKey: [facts.home_languages, facts.ten_credit, facts.teaching_language_subjects].map((l) => l.join(" ")).join("\n"),
    };
    readied.set(form, entry);
  }
  return entry;
}

/** What `qualifications` lists for entry `e`, made the first time it qualifies (immutable, so shared by every answer). */
function namedAt(prepared: Prepared, e: number): Named {
  let named = prepared.named[e];
  if (named === undefined) {
    const [id, name, min_aps, aps_scheme] = prepared.form.entries[e] as Entry;
    named = { id, name, min_aps, aps_scheme };
    prepared.named[e] = named;
  }
  return named;
}

/** Set `index` of a prepared form, compiled on first use. */
function setAt(prepared: Prepared, index: number): RequirementSet {
  let set = prepared.sets[index];
  if (set === undefined) {
    set = requirementSetOfForms((prepared.form.sets[index] as PreparedForm["sets"][number]).clauses, prepared.form.rule_subjects);
    prepared.sets[index] = set;
  }
  return set;
}

/**
 * What a requirement set comes to for one learner: met (true), what it misses as a near miss (the shortfall of its
 * one unmet requirement), or null when that is more than a small change.
 */
type SetOutcome = true | NonNullable<ReturnType<typeof subjectShortfalls>> | null;

// A comparison judges one learner at every university: the pass is worked out once per set of rules (most universities
// share one: English only).
const passesOf = new WeakMap<Learner, Map<string, NscPassResult>>();

function nscPassFor(learner: Learner, prepared: Prepared): NscPassResult {
  let byRules = passesOf.get(learner);
  if (!byRules) {
    byRules = new Map();
    passesOf.set(learner, byRules);
  }
  let result = byRules.get(prepared.nscKey);
  if (!result) {
    result = nscPassOf(learner.percentages, prepared.nsc);
    byRules.set(prepared.nscKey, result);
  }
  return result;
}

type Entry = EntryForm;

/**
 * One learner's marks judged at one university, programme by programme. What programmes share is worked out the
 * first time one asks and kept for the others: each requirement set's outcome and own score, the shortfall of each
 * statutory pass, the marks ranked once per scheme.
 */
class Judgement {
  private readonly setOutcomes: (SetOutcome | undefined)[];
  private readonly setScores: (number | undefined)[];
  private readonly ownScores = new Map<string, number>();
  private readonly scorers = new Map<ApsScheme, ReturnType<typeof scorerOf>>();
  private readonly passShortfalls = new Map<NscPass, Missing | null>();
  private readonly rankNow: number;

  constructor(
    private readonly prepared: Prepared,
    private readonly marks: readonly Mark[],
    private readonly learner: Learner,
    private readonly nsc: NscPassResult,
    /** The score on each of the university's schemes; a qualification is judged on the scheme its min_aps is on. */
    private readonly scoreOf: ReadonlyMap<ApsScheme, number>,
    private readonly mainScore: number,
  ) {
    this.setOutcomes = new Array(prepared.sets.length);
    this.setScores = new Array(prepared.sets.length);
    this.rankNow = passRank(nsc.pass);
  }

  /** What earning the pass `needed` misses, where one subject would earn it; null otherwise. */
  private passShortfall(needed: NscPass): Missing | null {
    let item = this.passShortfalls.get(needed);
    if (item === undefined) {
      const { percentages } = this.learner;
      const shortfall = needed === "bachelor" || needed === "diploma" ? nscShortfall(percentages, this.prepared.nsc, needed) : null;
      item = shortfall === null ? null : Object.freeze({ kind: "nsc" as const, ...shortfall });
      this.passShortfalls.set(needed, item);
    }
    return item;
  }

  /** What a requirement set comes to for this learner. */
  private outcomeOf(index: number): SetOutcome {
    let outcome = this.setOutcomes[index];
    if (outcome === undefined) {
      // Two unmet subject requirements are never a near miss (domain/aps/near-miss.ts): they need no description.
      // Independent sets (most) are read as the form writes them; the others are compiled on first use.
      const form = this.prepared.form.sets[index] as PreparedForm["sets"][number];
      const failures = form.independent
        ? unmetOfIndependentForms(form.clauses, this.learner.percentages, 1)
        : unmetRequirements(setAt(this.prepared, index), this.learner, 1);
      outcome = failures === null ? null : failures.length === 0 ? true : subjectShortfalls(failures);
      this.setOutcomes[index] = outcome;
    }
    return outcome;
  }

  /** Alternative routes: any one met suffices; else the route that misses least (the first of equals). */
  private routeOutcome(entry: Entry): SetOutcome {
    let outcome = this.outcomeOf(entry[SETS] as number);
    for (let r = SETS + 1; r < entry.length && outcome !== true; r++) {
      const other = this.outcomeOf(entry[r] as number);
      if (other === true || (other !== null && (outcome === null || other.length < outcome.length))) outcome = other;
    }
    return outcome;
  }

  /**
   * The score a programme is judged on. Where its scheme's required subjects must count, its score is its own, and
   * the same for its whole set: the set's lists (countedListsOf) are its programmes' (they share the requirements'
   * text). Sets that differ in minimums often need the same subjects counted: those share one score.
   */
  private scoreFor(scheme: ApsScheme, set: number): number {
    if (!scheme.required_subjects_counted) return this.scoreOf.get(scheme) ?? this.mainScore;
    let own = this.setScores[set];
    if (own === undefined) {
      const required = requiredSubjectsOf(this.prepared.form.sets[set]?.counted ?? [], this.learner.percentages);
      const key = `${scheme.id} ${[...required].sort().join(" ")}`;
      own = this.ownScores.get(key);
      if (own === undefined) {
        let scorer = this.scorers.get(scheme);
        if (scorer === undefined) {
          scorer = scorerOf(scheme, this.marks);
          this.scorers.set(scheme, scorer);
        }
        own = scorer(required).score;
        this.ownScores.set(key, own);
      }
      this.setScores[set] = own;
    }
    return own;
  }

  /** One programme: it qualifies, it is a near miss, or neither (null). */
  judge(entry: Entry): "qualifies" | NearMiss | null {
    const scheme = this.prepared.schemes[entry[4]] as ApsScheme;
    const passNeeded = PASS_FOR_TYPE[entry[5]];
    const passShort = this.rankNow < passRank(passNeeded);
    // Short of the pass its type needs: at best a near miss, where one subject would earn it.
    const passItem = passShort ? this.passShortfall(passNeeded) : null;
    if (passShort && passItem === null) return null;
    const score = this.scoreFor(scheme, entry[SETS] as number);
    const minAps = entry[2];
    // Far more than a near miss short on the APS: neither qualifies nor is a near miss; its subjects need no look.
    if (minAps !== null && minAps - score > NEAR_MISS_APS_SHARE * scheme.maximum + 1e-9) return null;
    const outcome = this.routeOutcome(entry);
    if (outcome === null) return null;
    const shortOnAps = minAps !== null && score < minAps;
    if (outcome === true && !shortOnAps && !passShort) return "qualifies";
    // The pass level counts as one unmet requirement: with another one as well, it is more than a small change.
    if (passItem !== null && outcome !== true && outcome.length > 0) return null;
    const missing = passItem !== null ? [passItem] : outcome === true ? [] : outcome;
    return nearMissWith(
      { id: entry[0], name: entry[1], min_aps: minAps },
      shortOnAps && minAps !== null ? { min_aps: minAps, score } : null,
      scheme.maximum,
      missing,
    );
  }
}

/** The university's main scheme as an answer shows it. */
function schemeSummary(scheme: ApsScheme) {
  return {
    id: scheme.id,
    name: scheme.name,
    intake_year: scheme.intake_year,
    method: scheme.method,
    life_orientation: scheme.life_orientation,
    maximum: scheme.maximum,
    confidence: scheme.confidence,
    notes: scheme.notes,
    source_url: scheme.source_url,
    verified_on: scheme.verified_on,
  };
}

/** What the calculator and the comparison both answer: the scores on every scheme, what the marks qualify
 * for, near misses. `university`: its document (the single calculator), or the build's prepared form of it (the
 * comparison); either is judged from the prepared form. `main` is the score on the university's main scheme.
 * `learner`: the marks read for matching, which a comparison reads once for all its universities. */
export function judgeUniversity(university: ApsUniversityDocument | PreparedForm, marks: readonly Mark[], main: Scores, given?: Learner) {
  const form = "entries" in university ? university : prepare(university);
  const prepared = ready(form);
  const { scheme, variants } = form;
  const learner = given ?? learnerOf(percentagesOf(marks));
  // The statutory minimum: no programme admits below the pass its type needs; a learner with no pass gets nothing.
  const nsc = nscPassFor(learner, prepared);
  // Each variant scheme scores the marks too; a qualification is judged on the scheme its min_aps is on.
  const others = variants.map((variant) => ({ variant, scores: apsScoreOf(variant, marks) }));
  const scoreOf = new Map<ApsScheme, number>([[scheme, main.score], ...others.map((o) => [o.variant, o.scores.score] as const)]);
  const judgement = new Judgement(prepared, marks, learner, nsc, scoreOf, main.score);
  const qualifying: Named[] = [];
  const nearMisses: NearMiss[] = [];
  if (nsc.pass !== "none") {
    const { entries } = form;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e] as Entry;
      const verdict = judgement.judge(entry);
      if (verdict === "qualifies") qualifying.push(namedAt(prepared, e));
      else if (verdict !== null) nearMisses.push(verdict);
    }
  }
  return {
    qualifies_for: qualifying.map((named) => named.id),
    qualifications: qualifying,
    near_misses: orderNearMisses(nearMisses),
    other_schemes: others.map(({ variant, scores }) => ({
      id: variant.id,
      name: variant.name,
      aps_score: scores.score,
      exact_score: scores.exact_score,
      maximum: variant.maximum,
    })),
    nsc: { ...nsc, source: { ...NSC_SOURCES, teaching_language: form.nsc.teaching_language_source } },
    scheme: schemeSummary(scheme),
  };
}

const qualificationsOf = new WeakMap<ApsUniversityDocument, ReadonlySet<ApsQualification>>();

/** One programme judged on its own, as the calculator judges it: its score on its scheme (its own where the scheme
 * counts required subjects), its minimum, its subject requirements (any one route) and the pass its type needs.
 * What targets (domain/aps/targets.ts) searches with. */
export function judgeAlone(
  document: ApsUniversityDocument,
  q: ApsQualification,
  marks: readonly Mark[],
): { qualifies: boolean; score: number; exact_score: number; failures: QualificationOutcome["failures"]; pass: NscPassResult; passNeeded: NscPass } {
  let known = qualificationsOf.get(document);
  if (!known) {
    known = new Set(document.qualifications);
    qualificationsOf.set(document, known);
  }
  if (!known.has(q)) throw new Error(`${q.id} is not a qualification of ${document.university.slug}`);
  const scheme = schemeOf(document, q);
  const percentages = percentagesOf(marks);
  const required = scheme.required_subjects_counted ? requiredSubjectsOf(countedListsOf(q), percentages) : undefined;
  const { score, exact_score } = apsScoreOf(scheme, marks, required);
  const { failures } = explainQualification(q, percentages, score, document.rule_subjects ?? {});
  const pass = nscPassOf(percentages, nscContextOf(document.nsc));
  const passNeeded = PASS_FOR_TYPE[q.qualification_type];
  return { qualifies: failures.length === 0 && passRank(pass.pass) >= passRank(passNeeded), score, exact_score, failures, pass, passNeeded };
}

/** The scheme a qualification's min_aps is on. */
export function schemeOf(document: ApsUniversityDocument, q: ApsQualification): ApsScheme {
  return q.scheme === undefined ? document.scheme : ((document.variants ?? []).find((v) => v.id === q.scheme) ?? document.scheme);
}
