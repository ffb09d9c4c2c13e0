// Judging marks at one university by its own rules: the scores on each of its schemes, what the marks qualify for
// (minimum APS, subject requirements, the statutory pass the programme's type needs) and the near misses. The
// single calculator, the comparison and targets all judge with this module, so they cannot disagree.
import { apsScoreOf, scorerOf, type ApsComputation } from "./engine.ts";
import { type Missing, NEAR_MISS_APS_SHARE, type NearMiss, nearMissWith, orderNearMisses, subjectShortfalls } from "./near-miss.ts";
import { type NscContext, type NscPass, type NscPassResult, nscPassOf, NSC_SOURCES, nscShortfall, PASS_FOR_TYPE, passRank } from "../nsc-pass.ts";
import {
  explainQualification,
  type Learner,
  learnerOf,
  percentagesOf,
  type QualificationOutcome,
  type RequirementSet,
  requirementSetFor,
  routesOf,
  unmetRequirements,
} from "./qualify.ts";
import type { ApsQualification, ApsScheme, ApsUniversityDocument, Mark } from "./scheme.ts";

/** The subjects a programme requires that the learner takes: its compulsory subjects and, per alternative
 * group, the learner's best option. */
function requiredSubjectsOf(q: ApsQualification, percentages: ReadonlyMap<string, number>): Set<string> {
  const required = new Set<string>();
  const bestOfGroup = new Map<string, { slug: string; percentage: number }>();
  for (const r of q.requirements) {
    const percentage = percentages.get(r.subject_slug);
    if (percentage === undefined) continue;
    if (r.alternative_group === null) {
      if (r.is_compulsory) required.add(r.subject_slug);
    } else if ((bestOfGroup.get(r.alternative_group)?.percentage ?? -1) < percentage) {
      bestOfGroup.set(r.alternative_group, { slug: r.subject_slug, percentage });
    }
  }
  for (const { slug } of bestOfGroup.values()) required.add(slug);
  return required;
}

type Scores = Pick<ApsComputation, "score" | "exact_score">;

/** A university's document prepared for judging many requests: each qualification with its scheme resolved and
 * the index of its requirement set (qualifications that share requirements and a scheme share one look at the
 * marks, and one score where the scheme counts required subjects). */
type PreparedDocument = {
  entries: {
    qualification: ApsQualification;
    scheme: ApsScheme;
    /** The index of its requirement set in `sets`: one, or one per alternative route (any one suffices). */
    set: number;
    /** Its alternative routes' sets beyond the first (empty for most). */
    moreSets: number[];
    /** The pass its type needs, and that pass's rank (domain/nsc-pass.ts): looked up once, not per request. */
    passNeeded: NscPass;
    passNeededRank: number;
    /** What `qualifications` lists for it when the marks qualify (immutable, so shared by every answer). */
    named: { id: string; name: string; min_aps: number | null; aps_scheme: string };
  }[];
  /** The distinct requirement sets (per scheme), each compiled the first time a learner's marks need it (a fresh
   * isolate compiles only what its first request reads), from the qualification and route in `setSources`. */
  sets: (RequirementSet | undefined)[];
  setSources: { qualification: ApsQualification; route: number | undefined }[];
  rules: Readonly<Record<string, readonly string[]>>;
  /** Every subject slug the university knows, for checking a request's marks. */
  subjects: ReadonlySet<string>;
  /** What the statutory minimum reads, and a key that is the same for universities whose rules are the same. */
  nsc: NscContext;
  nscKey: string;
  /** Each qualification's entry, for judging one programme alone. */
  byQualification: Map<ApsQualification, PreparedDocument["entries"][number]>;
};

// Documents are immutable and kept per isolate (functions/assets.ts), so each is prepared once.
const prepared = new WeakMap<ApsUniversityDocument, PreparedDocument>();

export function prepare(document: ApsUniversityDocument): PreparedDocument {
  let entry = prepared.get(document);
  if (entry) return entry;
  const { scheme } = document;
  const rules = document.rule_subjects ?? {};
  const setIndex = new Map<string, number>();
  const sets: (RequirementSet | undefined)[] = [];
  const setSources: PreparedDocument["setSources"] = [];
  const entries = document.qualifications.map((q) => {
    const qScheme = q.scheme === undefined ? scheme : ((document.variants ?? []).find((v) => v.id === q.scheme) ?? scheme);
    // Programmes whose requirements are written the same (and on one scheme) share one set: their text is the key, so
    // nothing is compiled here.
    const text = JSON.stringify([q.requirements, q.general_requirements ?? []]);
    const routes = routesOf(q);
    const [set, ...moreSets] = (routes.length === 0 ? [undefined] : routes).map((route) => {
      const key = `${qScheme.id}\n${route ?? ""}\n${text}`;
      let index = setIndex.get(key);
      if (index === undefined) {
        index = sets.length;
        setIndex.set(key, index);
        sets.push(undefined);
        setSources.push({ qualification: q, route });
      }
      return index;
    }) as [number, ...number[]];
    const passNeeded = PASS_FOR_TYPE[q.qualification_type];
    return {
      qualification: q,
      scheme: qScheme,
      set,
      moreSets,
      passNeeded,
      passNeededRank: passRank(passNeeded),
      named: { id: q.id, name: q.name, min_aps: q.min_aps, aps_scheme: q.scheme ?? scheme.id },
    };
  });
  const facts = document.nsc;
  const nsc: NscContext = {
    homeLanguages: new Set(facts.home_languages),
    tenCredit: new Set(facts.ten_credit),
    teachingLanguages: new Set(facts.teaching_language_subjects),
    teachingLanguageName: facts.teaching_language_name,
  };
  const nscKey = [facts.home_languages, facts.ten_credit, facts.teaching_language_subjects].map((l) => l.join(" ")).join("\n");
  const byQualification = new Map(entries.map((e) => [e.qualification, e]));
  entry = { entries, sets, setSources, rules, subjects: new Set(document.subjects.map((s) => s.slug)), nsc, nscKey, byQualification };
  prepared.set(document, entry);
  return entry;
}

/** Set `index` of a prepared document, compiled on first use. */
function setAt(prepared: PreparedDocument, index: number): RequirementSet {
  let set = prepared.sets[index];
  if (set === undefined) {
    const { qualification, route } = prepared.setSources[index] as PreparedDocument["setSources"][number];
    set = requirementSetFor(qualification, prepared.rules, route);
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

function nscPassFor(learner: Learner, prepared: PreparedDocument): NscPassResult {
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

type Entry = PreparedDocument["entries"][number];

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
    private readonly prepared: PreparedDocument,
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
      const failures = unmetRequirements(setAt(this.prepared, index), this.learner, 1);
      outcome = failures === null ? null : failures.length === 0 ? true : subjectShortfalls(failures);
      this.setOutcomes[index] = outcome;
    }
    return outcome;
  }

  /** Alternative routes: any one met suffices; else the route that misses least (the first of equals). */
  private routeOutcome(entry: Entry): SetOutcome {
    let outcome = this.outcomeOf(entry.set);
    const { moreSets } = entry;
    for (let r = 0; r < moreSets.length && outcome !== true; r++) {
      const other = this.outcomeOf(moreSets[r] as number);
      if (other === true || (other !== null && (outcome === null || other.length < outcome.length))) outcome = other;
    }
    return outcome;
  }

  /**
   * The score a programme is judged on. Where its scheme's required subjects must count, its score is its own, and
   * the same for its whole set: requiredSubjectsOf reads only the compulsory subjects and each group's options in
   * the document's order, and a set's signature holds exactly those, in that order (a group's best option is the
   * first of equals). Sets that differ in minimums often need the same subjects counted: those share one score.
   */
  private scoreFor({ qualification: q, scheme, set }: Entry): number {
    if (!scheme.required_subjects_counted) return this.scoreOf.get(scheme) ?? this.mainScore;
    let own = this.setScores[set];
    if (own === undefined) {
      const required = requiredSubjectsOf(q, this.learner.percentages);
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
    const { qualification: q, scheme } = entry;
    const passShort = this.rankNow < entry.passNeededRank;
    // Short of the pass its type needs: at best a near miss, where one subject would earn it.
    const passItem = passShort ? this.passShortfall(entry.passNeeded) : null;
    if (passShort && passItem === null) return null;
    const score = this.scoreFor(entry);
    // Far more than a near miss short on the APS: neither qualifies nor is a near miss; its subjects need no look.
    if (q.min_aps !== null && q.min_aps - score > NEAR_MISS_APS_SHARE * scheme.maximum + 1e-9) return null;
    const outcome = this.routeOutcome(entry);
    if (outcome === null) return null;
    const shortOnAps = q.min_aps !== null && score < q.min_aps;
    if (outcome === true && !shortOnAps && !passShort) return "qualifies";
    // The pass level counts as one unmet requirement: with another one as well, it is more than a small change.
    if (passItem !== null && outcome !== true && outcome.length > 0) return null;
    const missing = passItem !== null ? [passItem] : outcome === true ? [] : outcome;
    return nearMissWith(q, shortOnAps && q.min_aps !== null ? { min_aps: q.min_aps, score } : null, scheme.maximum, missing);
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
 * for, near misses. `main` is the score on the university's main scheme. `learner`: the marks read for matching,
 * which a comparison reads once for all its universities (read after their documents were prepared, so every
 * subject their requirements name is numbered and read from an array). */
export function judgeUniversity(document: ApsUniversityDocument, marks: readonly Mark[], main: Scores, given?: Learner) {
  const { scheme } = document;
  const prepared = prepare(document);
  const learner = given ?? learnerOf(percentagesOf(marks));
  // The statutory minimum: no programme admits below the pass its type needs; a learner with no pass gets nothing.
  const nsc = nscPassFor(learner, prepared);
  // Each variant scheme scores the marks too; a qualification is judged on the scheme its min_aps is on.
  const others = (document.variants ?? []).map((variant) => ({ variant, scores: apsScoreOf(variant, marks) }));
  const scoreOf = new Map<ApsScheme, number>([[scheme, main.score], ...others.map((o) => [o.variant, o.scores.score] as const)]);
  const judgement = new Judgement(prepared, marks, learner, nsc, scoreOf, main.score);
  const qualifying: Entry[] = [];
  const nearMisses: NearMiss[] = [];
  for (const entry of nsc.pass === "none" ? [] : prepared.entries) {
    const verdict = judgement.judge(entry);
    if (verdict === "qualifies") qualifying.push(entry);
    else if (verdict !== null) nearMisses.push(verdict);
  }
  return {
    qualifies_for: qualifying.map((e) => e.qualification.id),
    qualifications: qualifying.map((e) => e.named),
    near_misses: orderNearMisses(nearMisses),
    other_schemes: others.map(({ variant, scores }) => ({
      id: variant.id,
      name: variant.name,
      aps_score: scores.score,
      exact_score: scores.exact_score,
      maximum: variant.maximum,
    })),
    nsc: { ...nsc, source: { ...NSC_SOURCES, teaching_language: document.nsc.teaching_language_source } },
    scheme: schemeSummary(scheme),
  };
}

/** One programme judged on its own, as the calculator judges it: its score on its scheme (its own where the scheme
 * counts required subjects), its minimum, its subject requirements (any one route) and the pass its type needs.
 * What targets (domain/aps/targets.ts) searches with. */
export function judgeAlone(
  document: ApsUniversityDocument,
  q: ApsQualification,
  marks: readonly Mark[],
): { qualifies: boolean; score: number; exact_score: number; failures: QualificationOutcome["failures"]; pass: NscPassResult; passNeeded: NscPass } {
  const prepared = prepare(document);
  const entry = prepared.byQualification.get(q);
  if (!entry) throw new Error(`${q.id} is not a qualification of ${document.university.slug}`);
  const percentages = percentagesOf(marks);
  const required = entry.scheme.required_subjects_counted ? requiredSubjectsOf(q, percentages) : undefined;
  const { score, exact_score } = apsScoreOf(entry.scheme, marks, required);
  const { failures } = explainQualification(q, percentages, score, document.rule_subjects ?? {});
  const pass = nscPassOf(percentages, prepared.nsc);
  const passNeeded = PASS_FOR_TYPE[q.qualification_type];
  return { qualifies: failures.length === 0 && passRank(pass.pass) >= passRank(passNeeded), score, exact_score, failures, pass, passNeeded };
}

/** The scheme a qualification's min_aps is on. */
export function schemeOf(document: ApsUniversityDocument, q: ApsQualification): ApsScheme {
  return q.scheme === undefined ? document.scheme : ((document.variants ?? []).find((v) => v.id === q.scheme) ?? document.scheme);
}
