// The statutory minimum beneath every programme: which NSC pass a learner's marks earn at a university. Pure.
//
// Two texts decide it (docs/aps.md#the-statutory-minimum says why these two, and how incomplete marks are read):
//   1. The NSC itself, by the National Policy pertaining to the Programme and Promotion Requirements of the
//      National Curriculum Statement Grades R-12 (GG 36042, 28 December 2012, in force for every NSC written since
//      2014): 40% in three subjects, one of them an official language at Home Language level; 30% in three more;
//      one subject of the seven may be failed.
//   2. The Minimum Admission Requirements for Higher Certificate, Diploma and Bachelor's Degree Programmes (Higher
//      Education Act, Notice 751, GG 31231, 2008): an NSC, at least 30% in the institution's language of learning
//      and teaching (LoLT), and for a diploma four 20-credit subjects at 40% or more, for a bachelor's degree four
//      at 50% or more. Life Orientation carries 10 credits and never counts among the four.
// Each condition is met, not met, or cannot be told from the marks given (met: null).
import type { QualificationType } from "../lib/vocabulary.ts";

/** The statutory pass levels, lowest first. */
export const NSC_PASSES = ["none", "higher-certificate", "diploma", "bachelor"] as const;
export type NscPass = (typeof NSC_PASSES)[number];

export const NSC_RULES = [
  "nsc-seven-subjects",
  "nsc-home-language",
  "nsc-three-at-40",
  "nsc-at-most-one-below-30",
  "teaching-language",
  "four-at-40",
  "four-at-50",
] as const;
export type NscRule = (typeof NSC_RULES)[number];

type NscCondition = {
  rule: NscRule;
  /** null: the marks given cannot settle it (a subject it needs was not sent). */
  met: boolean | null;
  /** What the rule needs: a percentage, or a number of subjects (at most, for nsc-at-most-one-below-30). */
  need: number;
  /** What the marks give: the percentage of subject_slug, or a number of subjects; null when nothing given applies. */
  have: number | null;
  subject_slug?: string;
  /** The condition in words a learner understands. */
  reason: string;
};

export type NscPassResult = {
  pass: NscPass;
  /** false: a condition could not be checked on the marks given (see its met: null). */
  complete: boolean;
  conditions: NscCondition[];
  /** Why the pass is what it is, in one sentence. */
  reason: string;
};

/** What the judge needs to know of the subjects and of the university. */
export type NscContext = {
  /** Official languages at Home Language level. */
  homeLanguages: ReadonlySet<string>;
  /** Subjects that carry 10 credits, not 20 (Life Orientation). */
  tenCredit: ReadonlySet<string>;
  /** The subjects that are the university's language(s) of learning and teaching (English HL or FAL, ...). */
  teachingLanguages: ReadonlySet<string>;
  /** How the teaching languages are named in reasons ("English", "English or Afrikaans"). */
  teachingLanguageName: string;
};

/** The subjects that meet a language of learning and teaching: its Home Language and First Additional Language. */
export const teachingLanguageSubjects = (language: string): string[] => [`${language}-home-language`, `${language}-first-additional-language`];

/** Where the rules are stated (docs/aps.md#the-statutory-minimum): Notice 751 of 2008, and the Western Cape Education
 * Department's circular E13/2012 on the National Policy (GG 34600, amended by GG 36042) replacing the NSC's 2005 rules
 * (GG 27819) for every Grade 12 from 2014. */
export const NSC_SOURCES = {
  admission:
    "https://www.acts.co.za/higher-education-act-1997/n751_4__minimum_requirements_for_admission_to_the_higher_certificate_diploma_and_bachelor_s_degree.php",
  nsc: "https://wcedonline.westerncape.gov.za/circulars/circulars12/e13_12.html",
} as const;

/** The pass a qualification type needs (Notice 751; an advanced certificate, which it does not name, as a diploma). */
export const PASS_FOR_TYPE: Readonly<Record<QualificationType, NscPass>> = {
  bachelor: "bachelor",
  "extended-bachelor": "bachelor",
  diploma: "diploma",
  "extended-diploma": "diploma",
  "advanced-certificate": "diploma",
  "higher-certificate": "higher-certificate",
};

export const passRank = (pass: NscPass): number => NSC_PASSES.indexOf(pass);

const PASS_NAME: Record<NscPass, string> = {
  none: "no pass for higher education",
  "higher-certificate": "a higher-certificate pass",
  diploma: "a diploma pass",
  bachelor: "a bachelor's pass",
};

const subjectsWord = (n: number) => `${n} subject${n === 1 ? "" : "s"}`;
const pct = (p: number) => `${Math.round(p * 100) / 100}%`;

/** The best mark among `slugs` the learner has, with its subject, or null. */
function bestAmong(marks: ReadonlyMap<string, number>, accept: (slug: string) => boolean): { slug: string; percentage: number } | null {
  let best: { slug: string; percentage: number } | null = null;
  for (const [slug, percentage] of marks) if (accept(slug) && (best === null || percentage > best.percentage)) best = { slug, percentage };
  return best;
}

function count(marks: ReadonlyMap<string, number>, accept: (slug: string, percentage: number) => boolean): number {
  let n = 0;
  for (const [slug, percentage] of marks) if (accept(slug, percentage)) n += 1;
  return n;
}

/** The conditions, each checked on the marks given. */
function nscConditions(marks: ReadonlyMap<string, number>, context: NscContext): NscCondition[] {
  const seven = marks.size >= 7;
  const home = bestAmong(marks, (s) => context.homeLanguages.has(s));
  const lolt = bestAmong(marks, (s) => context.teachingLanguages.has(s));
  const at40 = count(marks, (_, p) => p >= 40);
  const below30 = count(marks, (_, p) => p < 30);
  const twenty = (threshold: number) => count(marks, (s, p) => p >= threshold && !context.tenCredit.has(s));
  const four40 = twenty(40);
  const four50 = twenty(50);

  const conditions: NscCondition[] = [];
  conditions.push({
    rule: "nsc-seven-subjects",
    met: seven ? true : null,
    need: 7,
    have: marks.size,
    reason: seven
      ? "The NSC is written in seven subjects: all are here."
      : `The NSC is written in seven subjects; only ${marks.size} were given, so what the others would change cannot be told.`,
  });
  conditions.push(
    home === null
      ? { rule: "nsc-home-language", met: null, need: 40, have: null, reason: "The NSC needs 40% in a Home Language; none was given." }
      : {
          rule: "nsc-home-language",
          met: home.percentage >= 40,
          need: 40,
          have: home.percentage,
          subject_slug: home.slug,
          reason:
            home.percentage >= 40
              ? `The NSC needs 40% in a Home Language: you have ${pct(home.percentage)}.`
              : `The NSC needs 40% in a Home Language; you have ${pct(home.percentage)}.`,
        },
  );
  const threeMet = at40 >= 3 && home !== null && home.percentage >= 40 ? true : seven || (home !== null && home.percentage < 40) ? false : null;
  conditions.push({
    rule: "nsc-three-at-40",
    met: threeMet,
    need: 3,
    have: at40,
    reason:
      threeMet === true
        ? `The NSC needs 40% or more in three subjects, one of them the Home Language: you have ${subjectsWord(at40)} at 40% or more.`
        : threeMet === false
          ? `The NSC needs 40% or more in three subjects, one of them the Home Language; you have ${subjectsWord(at40)} at 40% or more${home !== null && home.percentage < 40 ? ", and not the Home Language" : ""}.`
          : `The NSC needs 40% or more in three subjects, one of them the Home Language; the marks given have ${at40}, and the subjects not given might add to them.`,
  });
  const failMet = below30 >= 2 ? false : seven ? true : null;
  conditions.push({
    rule: "nsc-at-most-one-below-30",
    met: failMet,
    need: 1,
    have: below30,
    reason:
      failMet === false
        ? `The NSC allows one subject below 30%; you have ${below30}.`
        : failMet === true
          ? `The NSC allows one subject below 30%: you have ${below30}.`
          : `The NSC allows one subject below 30%; the marks given have ${below30}, and the subjects not given cannot be told.`,
  });
  conditions.push(
    lolt === null
      ? {
          rule: "teaching-language",
          met: null,
          need: 30,
          have: null,
          reason: `Admission needs 30% in the university's language of learning and teaching (${context.teachingLanguageName}); it was not given.`,
        }
      : {
          rule: "teaching-language",
          met: lolt.percentage >= 30,
          need: 30,
          have: lolt.percentage,
          subject_slug: lolt.slug,
          reason: `Admission needs 30% in the university's language of learning and teaching (${context.teachingLanguageName}); you have ${pct(lolt.percentage)}.`,
        },
  );
  // The four subjects are among the marks given, or they are not: a subject not sent earns nothing here.
  conditions.push({
    rule: "four-at-40",
    met: four40 >= 4,
    need: 4,
    have: four40,
    reason: `A diploma pass needs four subjects other than Life Orientation at 40% or more: you have ${four40 >= 4 ? four40 : `only ${four40}`}.`,
  });
  conditions.push({
    rule: "four-at-50",
    met: four50 >= 4,
    need: 4,
    have: four50,
    reason: `A bachelor's pass needs four subjects other than Life Orientation at 50% or more: you have ${four50 >= 4 ? four50 : `only ${four50}`}.`,
  });
  return conditions;
}

const NSC_ITSELF: ReadonlySet<NscRule> = new Set(["nsc-seven-subjects", "nsc-home-language", "nsc-three-at-40", "nsc-at-most-one-below-30"]);

/**
 * The pass the marks earn at a university: none when a condition of the NSC or of the teaching language is not met;
 * else bachelor, diploma or higher certificate by the four 20-credit subjects. A condition the marks cannot settle
 * does not hold a learner back (a portal may send only the subjects a programme needs), but the answer says
 * `complete: false` and which conditions could not be checked.
 */
export function nscPassOf(marks: ReadonlyMap<string, number>, context: NscContext): NscPassResult {
  const conditions = nscConditions(marks, context);
  const complete = conditions.every((c) => c.met !== null);
  const failed = conditions.filter((c) => c.met === false && (NSC_ITSELF.has(c.rule) || c.rule === "teaching-language"));
  const met = (rule: NscRule) => conditions.find((c) => c.rule === rule)?.met === true;
  const pass: NscPass = failed.length > 0 ? "none" : met("four-at-50") ? "bachelor" : met("four-at-40") ? "diploma" : "higher-certificate";
  const unchecked = conditions.filter((c) => c.met === null).length;
  const caveat = unchecked > 0 ? ` (${unchecked} condition${unchecked === 1 ? "" : "s"} could not be checked on the marks given)` : "";
  let reason: string;
  if (failed.length > 0) {
    const noNsc = failed.some((c) => NSC_ITSELF.has(c.rule));
    reason = `${noNsc ? "These marks do not earn the NSC" : "These marks do not meet the teaching-language minimum"}, so no programme can admit them: ${failed.map((c) => c.reason).join(" ")}`;
  } else {
    const next = pass === "bachelor" ? null : pass === "diploma" ? "four-at-50" : "four-at-40";
    const nextReason = next === null ? "" : ` ${conditions.find((c) => c.rule === next)?.reason ?? ""}`;
    reason = `These marks earn ${PASS_NAME[pass]}${caveat}.${nextReason}`;
  }
  return { pass, complete, conditions, reason };
}

/** How a learner one subject short of a pass would earn it: the subject nearest the threshold, within one level. */
export type NscShortfall = {
  pass: "diploma" | "bachelor";
  /** Subjects other than Life Orientation needed at need_percentage, and how many are. */
  need: number;
  have: number;
  subject_slug: string;
  need_percentage: number;
  have_percentage: number;
};

/**
 * The near miss on the pass level: three 20-credit subjects at the pass's threshold where four are needed, and a
 * fourth within one NSC level below it (the one nearest is named). Null when more than that is missing.
 */
export function nscShortfall(marks: ReadonlyMap<string, number>, context: NscContext, pass: "diploma" | "bachelor"): NscShortfall | null {
  const threshold = pass === "bachelor" ? 50 : 40;
  let have = 0;
  let nearest: { slug: string; percentage: number } | null = null;
  for (const [slug, percentage] of marks) {
    if (context.tenCredit.has(slug)) continue;
    if (percentage >= threshold) have += 1;
    else if (percentage >= threshold - 10 && (nearest === null || percentage > nearest.percentage)) nearest = { slug, percentage };
  }
  if (have !== 3 || nearest === null) return null;
  return { pass, need: 4, have, subject_slug: nearest.slug, need_percentage: threshold, have_percentage: nearest.percentage };
}
