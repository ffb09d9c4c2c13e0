// POST /v1/data/aps-calculator, minus HTTP: the parsed JSON body is checked field by field (every
// problem is collected, each with the exact path a client can point at), the university's document is
// loaded through the caller's function, and the result is scored and matched. The Worker wraps a 422 as
// {"error": {...}} and a 200 as {"data": ...}.
import { z } from "zod";
import { type ApsComputation, apsScoreOf, computeAps, scorerOf } from "./engine.ts";
import { type Missing, NEAR_MISS_APS_SHARE, type NearMiss, nearMissWith, orderNearMisses, subjectShortfalls } from "./near-miss.ts";
import {
  NSC_PASSES,
  NSC_RULES,
  type NscContext,
  type NscPass,
  type NscPassResult,
  nscPassOf,
  NSC_SOURCES,
  nscShortfall,
  PASS_FOR_TYPE,
  passRank,
} from "../nsc-pass.ts";
import {
  explainQualification,
  type Learner,
  learnerOf,
  percentagesOf,
  type QualificationOutcome,
  type RequirementSet,
  requirementSetsOf,
  unmetRequirements,
} from "./qualify.ts";
import { CONFIDENCE_LEVELS, MAX_SLUG_LENGTH, SLUG } from "../../lib/vocabulary.ts";
import { APS_METHODS, LIFE_ORIENTATION_TREATMENTS, type ApsQualification, type ApsScheme, type ApsUniversityDocument, type Mark } from "./scheme.ts";

export const MAX_MARKS = 20;
const APS_ERROR_CODE = "invalid_aps_request";

export type ApsErrorDetail = { path: string; message: string };

export type ApsResponse<T = ApsResult> =
  | { status: 200; data: T }
  | { status: 422; code: typeof APS_ERROR_CODE; message: string; details: ApsErrorDetail[] };

/**
 * The request body, for the OpenAPI document. The checks below (answerApsRequest) say the same field by
 * field with a message per problem, and also check what a schema cannot: that the university and the
 * subjects exist, and that no subject is given twice.
 */
export const ApsRequestSchema = z.object({
  university_slug: z
    .string()
    .max(MAX_SLUG_LENGTH)
    .regex(SLUG)
    .describe("The slug of a university (GET /v1/data/universities); its own APS scheme scores the marks."),
  marks: z
    .array(
      z.object({
        subject_slug: z.string().describe("A subject slug from GET /v1/data/subjects; each subject at most once."),
        percentage: z.number().min(0).max(100).describe("The final NSC percentage, 0 to 100 (fractions allowed)."),
      }),
    )
    .min(1)
    .max(MAX_MARKS)
    .describe(`One entry per subject result, 1 to ${MAX_MARKS}.`),
});

const MissingOptionSchema = z.object({
  subject_slug: z.string().describe("A subject slug, or @other-language / @other-subject for a general requirement."),
  need_level: z.number().int().min(1).max(7),
  have_level: z.number().int().min(1).max(7),
  need_percentage: z.number().min(0).max(100),
  have_percentage: z.number().min(0).max(100),
});

/** A qualification the learner does not meet but would with a small change (domain/aps/near-miss.ts). */
const NearMissSchema = z.object({
  qualification_id: z.string(),
  name: z.string(),
  min_aps: z.number().int().nullable(),
  missing: z.array(
    z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("aps"), need: z.number().int(), have: z.number().int() }),
      MissingOptionSchema.extend({ kind: z.literal("subject") }),
      z.object({ kind: z.literal("group"), group: z.string(), options: z.array(MissingOptionSchema) }),
      z.object({
        kind: z.literal("nsc"),
        pass: z.enum(["diploma", "bachelor"]).describe("The statutory pass the programme needs."),
        need: z.number().int().describe("Subjects other than Life Orientation needed at need_percentage (4)."),
        have: z.number().int().describe("How many the learner has there (3)."),
        subject_slug: z.string().describe("The learner's subject nearest the threshold: raising it earns the pass."),
        need_percentage: z.number(),
        have_percentage: z.number(),
      }),
    ]),
  ),
});

const QualificationNameSchema = z.object({
  id: z.string(),
  name: z.string(),
  min_aps: z.number().int().nullable(),
  /** The scheme min_aps is on: the university's main scheme, or one of other_schemes. */
  aps_scheme: z.string(),
});

/** The statutory minimum at this university (domain/nsc-pass.ts, docs/aps.md#the-statutory-minimum). */
const NscSchema = z.object({
  pass: z
    .enum(NSC_PASSES)
    .describe(
      "The statutory pass the marks earn here: bachelor, diploma, higher-certificate, or none (no NSC, or under 30% in the university's teaching language): none qualifies for nothing.",
    ),
  complete: z.boolean().describe("false: a condition could not be checked on the marks given (its met is null)."),
  conditions: z.array(
    z.object({
      rule: z.enum(NSC_RULES),
      met: z.boolean().nullable(),
      need: z.number(),
      have: z.number().nullable(),
      subject_slug: z.string().optional(),
      reason: z.string(),
    }),
  ),
  reason: z.string().describe("Why the pass is what it is, in words a learner understands."),
  source: z.object({
    admission: z.string().describe("Notice 751 of 2008: the minimum admission requirements per qualification type."),
    nsc: z.string().describe("The NSC's own pass requirements (the National Policy in force since 2014)."),
    teaching_language: z.string().describe("Where this university's language(s) of learning and teaching are stated."),
  }),
});

/** The score on another method some of the university's programmes use (e.g. SMU's health schools). */
const OtherSchemeScoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  aps_score: z.number().int(),
  exact_score: z.number(),
  maximum: z.number().int(),
});

const SchemeSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  intake_year: z.number().int(),
  method: z.enum(APS_METHODS),
  life_orientation: z.enum(LIFE_ORIENTATION_TREATMENTS),
  maximum: z.number().int(),
  confidence: z.enum(CONFIDENCE_LEVELS),
  notes: z.string(),
  source_url: z.string(),
  verified_on: z.string(),
});

/** The 200 data, for response checks in tests and the OpenAPI document. */
export const ApsResultSchema = z.object({
  aps_score: z.number().int(),
  university_slug: z.string(),
  qualifies_for: z.array(z.string()),
  /** The same qualifications as qualifies_for, in the same order, with their names and minimums. */
  qualifications: z.array(QualificationNameSchema),
  near_misses: z.array(NearMissSchema),
  /** Scores on the university's other methods, where some of its programmes use one ([] for most). */
  other_schemes: z.array(OtherSchemeScoreSchema),
  nsc: NscSchema,
  exact_score: z.number(),
  maximum: z.number().int(),
  breakdown: z.array(
    z.object({
      subject_slug: z.string(),
      percentage: z.number().min(0).max(100),
      scale_class: z.string().nullable(),
      points: z.number(),
      bonus_points: z.number(),
      counted: z.boolean(),
      counted_as: z.string().nullable(),
      reason: z.string(),
    }),
  ),
  unfilled: z.array(z.object({ class: z.string(), missing: z.number().int().positive(), note: z.string() })),
  scheme: SchemeSummarySchema,
});
export type ApsResult = z.infer<typeof ApsResultSchema>;

/** One university's answer in a comparison: the single calculator's answer, cut to what a comparison shows. */
const ComparedUniversitySchema = z.object({
  university_slug: z.string(),
  university_name: z.string(),
  aps_score: z.number().int(),
  maximum: z.number().int(),
  scheme: SchemeSummarySchema,
  qualifies_for: z.array(z.string()),
  qualifications: z.array(QualificationNameSchema),
  near_misses: z.array(NearMissSchema),
  other_schemes: z.array(OtherSchemeScoreSchema),
  nsc: NscSchema,
});
type ComparedUniversity = z.infer<typeof ComparedUniversitySchema>;

export const CompareRequestSchema = z.object({
  marks: ApsRequestSchema.shape.marks,
  university_slugs: z
    .array(z.string().max(MAX_SLUG_LENGTH).regex(SLUG))
    .min(1)
    .optional()
    .describe("The universities to compare, each once (default: all 26)."),
});

export const CompareResultSchema = z.object({
  data: z.array(ComparedUniversitySchema),
  meta: z.object({ universities: z.number().int(), qualifies_for_total: z.number().int() }),
});
export type CompareResult = z.infer<typeof CompareResultSchema>;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const describe = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : `a ${typeof value}`;

export function invalid(details: ApsErrorDetail[]): ApsResponse {
  const first = details[0]?.message ?? "";
  const message =
    details.length === 1 ? `The APS request is invalid: ${details[0]?.path} ${first}` : `The APS request has ${details.length} problems; see details`;
  return { status: 422, code: APS_ERROR_CODE, message, details };
}

export type Loader = (slug: string) => Promise<ApsUniversityDocument | null>;

/** university_slug: a slug of a university the loader knows. Only a well-formed slug is handed to the
 * loader, so a body can never steer the Worker to an arbitrary asset path. */
export async function checkUniversity(slug: unknown, load: Loader, details: ApsErrorDetail[]): Promise<ApsUniversityDocument | null> {
  if (slug === undefined) {
    details.push({ path: "university_slug", message: "is required (a university slug from GET /v1/data/universities)" });
    return null;
  }
  if (typeof slug !== "string") {
    details.push({ path: "university_slug", message: `must be a string, not ${describe(slug)}` });
    return null;
  }
  const document = slug.length <= MAX_SLUG_LENGTH && SLUG.test(slug) ? await load(slug) : null;
  if (document === null) {
    details.push({
      path: "university_slug",
      message: `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)`,
    });
  }
  return document;
}

/** One marks[i]: a known subject not given before, and a percentage from 0 to 100. */
function checkMark(
  item: unknown,
  i: number,
  knownSubjects: ReadonlySet<string> | null,
  firstIndexOf: Map<string, number>,
  details: ApsErrorDetail[],
): Mark | null {
  const at = `marks[${i}]`;
  if (!isObject(item)) {
    details.push({ path: at, message: `must be an object {subject_slug, percentage}, not ${describe(item)}` });
    return null;
  }
  let subjectOk = false;
  const subject = item.subject_slug;
  if (subject === undefined) details.push({ path: `${at}.subject_slug`, message: "is required (a slug from GET /v1/data/subjects)" });
  else if (typeof subject !== "string") details.push({ path: `${at}.subject_slug`, message: `must be a string, not ${describe(subject)}` });
  else if (firstIndexOf.has(subject)) {
    details.push({
      path: `${at}.subject_slug`,
      message: `repeats ${JSON.stringify(subject)} from marks[${firstIndexOf.get(subject)}]; give each subject once`,
    });
  } else {
    firstIndexOf.set(subject, i);
    if (knownSubjects && !knownSubjects.has(subject)) {
      details.push({
        path: `${at}.subject_slug`,
        message: `${JSON.stringify(subject.slice(0, 100))} is not a known subject slug (see GET /v1/data/subjects)`,
      });
    } else {
      subjectOk = true;
    }
  }
  let percentageOk = false;
  const percentage = item.percentage;
  if (percentage === undefined) details.push({ path: `${at}.percentage`, message: "is required (a number from 0 to 100)" });
  else if (typeof percentage !== "number" || !Number.isFinite(percentage)) {
    details.push({ path: `${at}.percentage`, message: `must be a number from 0 to 100, not ${describe(percentage)}` });
  } else if (percentage < 0 || percentage > 100) {
    details.push({ path: `${at}.percentage`, message: `must be from 0 to 100, not ${percentage}` });
  } else {
    percentageOk = true;
  }
  return subjectOk && percentageOk ? { subject_slug: subject as string, percentage: percentage as number } : null;
}

/** marks: 1 to MAX_MARKS marks, each subject once. Subjects are checked against knownSubjects when given. */
export function checkMarks(raw: unknown, knownSubjects: ReadonlySet<string> | null, details: ApsErrorDetail[]): Mark[] {
  if (raw === undefined) {
    details.push({ path: "marks", message: "is required (an array of {subject_slug, percentage})" });
    return [];
  }
  if (!Array.isArray(raw)) {
    details.push({ path: "marks", message: `must be an array of {subject_slug, percentage}, not ${describe(raw)}` });
    return [];
  }
  if (raw.length === 0) {
    details.push({ path: "marks", message: "must hold at least one mark" });
    return [];
  }
  if (raw.length > MAX_MARKS) details.push({ path: "marks", message: `must hold at most ${MAX_MARKS} marks, not ${raw.length}` });
  const firstIndexOf = new Map<string, number>();
  return raw.flatMap((item: unknown, i) => checkMark(item, i, knownSubjects, firstIndexOf, details) ?? []);
}

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
    /** The pass its type needs, and that pass's rank (domain/nsc-pass.ts). */
    passNeeded: NscPass;
    passNeededRank: number;
    /** What `qualifications` lists for it when the marks qualify (immutable, so shared by every answer). */
    named: { id: string; name: string; min_aps: number | null; aps_scheme: string };
  }[];
  /** The distinct requirement sets (per scheme). */
  sets: RequirementSet[];
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

function prepare(document: ApsUniversityDocument): PreparedDocument {
  let entry = prepared.get(document);
  if (entry) return entry;
  const { scheme } = document;
  const rules = document.rule_subjects ?? {};
  const setIndex = new Map<string, number>();
  const sets: RequirementSet[] = [];
  const entries = document.qualifications.map((q) => {
    const qScheme = q.scheme === undefined ? scheme : ((document.variants ?? []).find((v) => v.id === q.scheme) ?? scheme);
    const [set, ...moreSets] = requirementSetsOf(q, rules).map((requirements) => {
      const signature = `${qScheme.id}\n${requirements.signature}`;
      let index = setIndex.get(signature);
      if (index === undefined) {
        index = sets.length;
        setIndex.set(signature, index);
        sets.push(requirements);
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
  entry = { entries, sets, subjects: new Set(document.subjects.map((s) => s.slug)), nsc, nscKey, byQualification };
  prepared.set(document, entry);
  return entry;
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

/** What the calculator and the comparison both answer: the scores on every scheme, what the marks qualify
 * for, near misses. `main` is the score on the university's main scheme. `learner`: the marks read for matching,
 * which a comparison reads once for all its universities (read after their documents were prepared, so every
 * subject their requirements name is numbered and read from an array). */
function judgeUniversity(document: ApsUniversityDocument, marks: readonly Mark[], main: Scores, given?: Learner) {
  const { scheme } = document;
  const prepared = prepare(document);
  const { entries, sets } = prepared;
  const learner = given ?? learnerOf(percentagesOf(marks));
  // The statutory minimum: no programme admits below the pass its type needs; a learner with no pass gets nothing.
  const nsc = nscPassFor(learner, prepared);
  const rankNow = passRank(nsc.pass);
  const passShortfalls = new Map<NscPass, Missing | null>();
  const passShortfall = (needed: NscPass): Missing | null => {
    let item = passShortfalls.get(needed);
    if (item === undefined) {
      const shortfall = needed === "bachelor" || needed === "diploma" ? nscShortfall(learner.percentages, prepared.nsc, needed) : null;
      item = shortfall === null ? null : Object.freeze({ kind: "nsc" as const, ...shortfall });
      passShortfalls.set(needed, item);
    }
    return item;
  };
  // Each variant scheme scores the marks too; a qualification is judged on the scheme its min_aps is on.
  const others = (document.variants ?? []).map((variant) => ({ variant, scores: apsScoreOf(variant, marks) }));
  const scoreOf = new Map<ApsScheme, number>([[scheme, main.score], ...others.map((o) => [o.variant, o.scores.score] as const)]);
  const { percentages } = learner;
  // Per requirement set: its outcome and its own score.
  const setOutcomes: (SetOutcome | undefined)[] = new Array(sets.length);
  const setScores: (number | undefined)[] = new Array(sets.length);
  const ownScores = new Map<string, number>();
  // The marks ranked once per scheme, for the own scores of its programmes.
  const scorers = new Map<ApsScheme, ReturnType<typeof scorerOf>>();
  const qualifying: PreparedDocument["entries"] = [];
  const nearMisses: NearMiss[] = [];
  // What a requirement set comes to for this learner, worked out the first time a programme asks.
  const outcomeOf = (index: number): SetOutcome => {
    let outcome = setOutcomes[index];
    if (outcome === undefined) {
      // Two unmet subject requirements are never a near miss (domain/aps/near-miss.ts): they need no description.
      const failures = unmetRequirements(sets[index] as RequirementSet, learner, 1);
      outcome = failures === null ? null : failures.length === 0 ? true : subjectShortfalls(failures);
      setOutcomes[index] = outcome;
    }
    return outcome;
  };
  for (const entry of nsc.pass === "none" ? [] : entries) {
    const { qualification: q, scheme: qScheme, set } = entry;
    const passShort = rankNow < entry.passNeededRank;
    // Short of the pass its type needs: at best a near miss, where one subject would earn it.
    const passItem = passShort ? passShortfall(entry.passNeeded) : null;
    if (passShort && passItem === null) continue;
    const maximum = qScheme.maximum;
    let score = scoreOf.get(qScheme) ?? main.score;
    // Where the programme's required subjects must count, its score is its own, and the same for its whole set:
    // requiredSubjectsOf reads only the compulsory subjects and each group's options in the document's order, and a
    // set's signature holds exactly those, in that order (a group's best option is the first of equals).
    if (qScheme.required_subjects_counted) {
      let own = setScores[set];
      if (own === undefined) {
        // Sets that differ in minimums often need the same subjects counted: those share one score.
        const required = requiredSubjectsOf(q, percentages);
        const key = `${qScheme.id} ${[...required].sort().join(" ")}`;
        own = ownScores.get(key);
        if (own === undefined) {
          let scorer = scorers.get(qScheme);
          if (scorer === undefined) {
            scorer = scorerOf(qScheme, marks);
            scorers.set(qScheme, scorer);
          }
          own = scorer(required).score;
          ownScores.set(key, own);
        }
        setScores[set] = own;
      }
      score = own;
    }
    // Far more than a near miss short on the APS: neither qualifies nor is a near miss; its subjects need no look.
    if (q.min_aps !== null && q.min_aps - score > NEAR_MISS_APS_SHARE * maximum + 1e-9) continue;
    let outcome = outcomeOf(set);
    // Alternative routes: any one met suffices; else the route that misses least (the first of equals).
    const { moreSets } = entry;
    for (let r = 0; r < moreSets.length && outcome !== true; r++) {
      const other = outcomeOf(moreSets[r] as number);
      if (other === true || (other !== null && (outcome === null || other.length < outcome.length))) outcome = other;
    }
    if (outcome === null) continue;
    const shortOnAps = q.min_aps !== null && score < q.min_aps;
    if (outcome === true && !shortOnAps && !passShort) {
      qualifying.push(entry);
      continue;
    }
    // The pass level counts as one unmet requirement: with another one as well, it is more than a small change.
    if (passItem !== null && outcome !== true && outcome.length > 0) continue;
    const missing = passItem !== null ? [passItem] : outcome === true ? [] : outcome;
    const miss = nearMissWith(q, shortOnAps && q.min_aps !== null ? { min_aps: q.min_aps, score } : null, maximum, missing);
    if (miss) nearMisses.push(miss);
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
    scheme: {
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
    },
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

/** The 200 answer for one university: its score on its own scheme, what the marks qualify for, near misses. */
export function apsResultOf(document: ApsUniversityDocument, marks: readonly Mark[]): ApsResult {
  const computation = computeAps(document.scheme, marks);
  const judged = judgeUniversity(document, marks, computation);
  return {
    aps_score: computation.score,
    university_slug: document.university.slug,
    qualifies_for: judged.qualifies_for,
    qualifications: judged.qualifications,
    near_misses: judged.near_misses,
    other_schemes: judged.other_schemes,
    nsc: judged.nsc,
    exact_score: computation.exact_score,
    maximum: computation.maximum,
    breakdown: computation.subjects,
    unfilled: computation.unfilled,
    scheme: judged.scheme,
  };
}

export async function answerApsRequest(body: unknown, loadUniversity: Loader): Promise<ApsResponse> {
  if (!isObject(body)) {
    return invalid([{ path: "body", message: `must be a JSON object with university_slug and marks, not ${describe(body)}` }]);
  }
  const details: ApsErrorDetail[] = [];
  const document = await checkUniversity(body.university_slug, loadUniversity, details);
  const knownSubjects = document ? prepare(document).subjects : null;
  const marks = checkMarks(body.marks, knownSubjects, details);
  if (details.length > 0 || document === null) return invalid(details);
  return { status: 200, data: apsResultOf(document, marks) };
}

/** The universities a comparison can name, in the order answers are given (by name), and every subject slug. */
export type ApsIndex = { universities: { slug: string; name: string }[]; subjects: string[] };

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

/** university_slugs: absent (every university), or a non-empty array of known slugs, each once. */
function checkUniversitySlugs(raw: unknown, index: ApsIndex, details: ApsErrorDetail[]): string[] {
  const known = new Set(index.universities.map((u) => u.slug));
  if (raw === undefined) return index.universities.map((u) => u.slug);
  if (!Array.isArray(raw)) {
    details.push({ path: "university_slugs", message: `must be an array of university slugs, not ${describe(raw)}` });
    return [];
  }
  if (raw.length === 0) {
    details.push({ path: "university_slugs", message: "must name at least one university (leave it out to compare all of them)" });
    return [];
  }
  const chosen = new Set<string>();
  raw.forEach((slug: unknown, i) => {
    const at = `university_slugs[${i}]`;
    if (typeof slug !== "string") details.push({ path: at, message: `must be a string, not ${describe(slug)}` });
    else if (chosen.has(slug))
      details.push({ path: at, message: `repeats ${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))}; name each university once` });
    else if (!known.has(slug))
      details.push({
        path: at,
        message: `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)`,
      });
    else chosen.add(slug);
  });
  return index.universities.map((u) => u.slug).filter((slug) => chosen.has(slug));
}

/** POST /v1/data/aps-calculator/compare, minus HTTP: the same marks scored at every university named, each on
 * its own scheme by the same engine as the single calculator (apsResultOf), ordered by university name. */
export async function answerCompareRequest(body: unknown, index: ApsIndex, loadUniversity: Loader): Promise<ApsResponse<CompareResult>> {
  if (!isObject(body))
    return invalid([
      { path: "body", message: `must be a JSON object with marks (and optionally university_slugs), not ${describe(body)}` },
    ]) as ApsResponse<CompareResult>;
  const details: ApsErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== "marks" && key !== "university_slugs")
      details.push({ path: key, message: "is not a field of this request (marks, university_slugs)" });
  }
  const slugs = checkUniversitySlugs(body.university_slugs, index, details);
  const marks = checkMarks(body.marks, subjectSetOf(index), details);
  if (details.length > 0) return invalid(details) as ApsResponse<CompareResult>;
  const documents: ApsUniversityDocument[] = [];
  for (const slug of slugs) {
    const document = await loadUniversity(slug);
    if (document === null) throw new Error(`the APS index names ${slug} but it has no document`);
    prepare(document);
    documents.push(document);
  }
  const learner = learnerOf(percentagesOf(marks));
  const data: ComparedUniversity[] = [];
  for (const document of documents) {
    // The comparison shows no breakdown, so the main scheme's score is computed without one.
    const main = apsScoreOf(document.scheme, marks);
    const judged = judgeUniversity(document, marks, main, learner);
    data.push({
      university_slug: document.university.slug,
      university_name: document.university.name,
      aps_score: main.score,
      maximum: document.scheme.maximum,
      scheme: judged.scheme,
      qualifies_for: judged.qualifies_for,
      qualifications: judged.qualifications,
      near_misses: judged.near_misses,
      other_schemes: judged.other_schemes,
      nsc: judged.nsc,
    });
  }
  return {
    status: 200,
    data: { data, meta: { universities: data.length, qualifies_for_total: data.reduce((n, u) => n + u.qualifies_for.length, 0) } },
  };
}
