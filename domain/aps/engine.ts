// The APS engine: one university's scheme applied to a learner's marks. Pure and deterministic: the
// marks are copied and put in a fixed order first, so neither the caller's array nor its order can
// change the result.
import type { ApsScheme, BonusRule, Mark, ScaleAssignment, ScaleBand } from "./scheme.ts";

type SubjectBreakdown = {
  subject_slug: string;
  percentage: number;
  /** The class whose scale scored this subject; null for the scheme's default scale. */
  scale_class: string | null;
  /** Points from the scale plus any bonus, whether or not the subject counted. */
  points: number;
  bonus_points: number;
  counted: boolean;
  /** The selection class the subject counted under, or null. */
  counted_as: string | null;
  reason: string;
};

type UnfilledSlot = { class: string; missing: number; note: string };

export type ApsComputation = {
  /** The score as an integer on the university's scale: the exact score rounded down. */
  score: number;
  /** The score before rounding down (e.g. 44.7 on a percentage/10 scheme, 73.83 for an average). */
  exact_score: number;
  maximum: number;
  subjects: SubjectBreakdown[];
  /** Places in the selection no submitted subject could fill (e.g. no English mark). */
  unfilled: UnfilledSlot[];
};

// Sums of fractional points (7.3 + 6.1 + ...) pick up binary rounding noise; six decimals is far finer
// than any published scale, and rounding before flooring keeps 45 from becoming 44.999999999.
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** The band holding a percentage: whole-number bands, fractions truncated (59.99 is in 50-59). */
export function bandOf(bands: readonly ScaleBand[], percentage: number): ScaleBand | undefined {
  const whole = Math.floor(percentage);
  return bands.find((band) => band.from <= whole && whole <= band.to);
}

function pointsOnBand(band: ScaleBand, percentage: number): number {
  return band.points ?? (band.points_per_percent ?? 0) * percentage;
}

// What the engine looks up per mark, from the (immutable) scheme: compiled once per scheme object, so the
// calculator and a comparison over every programme do not search the scheme's lists for each mark.
type CompiledScheme = {
  scaleOf: ReadonlyMap<string, ScaleAssignment>;
  defaultScale: ScaleAssignment | undefined;
  bonusesOf: ReadonlyMap<string, BonusRule[]>;
  slotSubjects: ReadonlySet<string>[];
  places: number;
};

const compiledSchemes = new WeakMap<ApsScheme, CompiledScheme>();

function compiledOf(scheme: ApsScheme): CompiledScheme {
  let entry = compiledSchemes.get(scheme);
  if (!entry) {
    const scaleOf = new Map<string, ScaleAssignment>();
    // A subject is in at most one non-default class; the first listed wins, as a linear search would.
    for (const s of scheme.scales) for (const subject of s.subjects ?? []) if (!scaleOf.has(subject)) scaleOf.set(subject, s);
    const bonusesOf = new Map<string, BonusRule[]>();
    for (const b of scheme.bonuses) for (const subject of new Set(b.subjects)) bonusesOf.set(subject, [...(bonusesOf.get(subject) ?? []), b]);
    entry = {
      scaleOf,
      defaultScale: scheme.scales.find((s) => s.subjects === null),
      bonusesOf,
      slotSubjects: scheme.selection.map((slot) => new Set(slot.subjects)),
      places: scheme.selection.reduce((n, slot) => n + slot.count, 0),
    };
    compiledSchemes.set(scheme, entry);
  }
  return entry;
}

type Scored = { mark: Mark; scale: ScaleAssignment | undefined; base: number; bonus: number; value: number };

function score(compiled: CompiledScheme, mark: Mark): Scored {
  const scale = compiled.scaleOf.get(mark.subject_slug) ?? compiled.defaultScale;
  const band = scale ? bandOf(scale.bands, mark.percentage) : undefined;
  const base = band ? pointsOnBand(band, mark.percentage) : 0;
  const whole = Math.floor(mark.percentage);
  let bonus = 0;
  for (const b of compiled.bonusesOf.get(mark.subject_slug) ?? []) if (b.from <= whole && whole <= b.to) bonus += b.points;
  return { mark, scale, base, bonus, value: base + bonus };
}

const NO_SUBJECTS: ReadonlySet<string> = new Set();

// Best first; ties go to the higher percentage, then to the subject slug, so the choice never depends
// on the order the marks arrived in.
const better = (a: Scored, b: Scored) =>
  b.value - a.value ||
  b.mark.percentage - a.mark.percentage ||
  (a.mark.subject_slug < b.mark.subject_slug ? -1 : a.mark.subject_slug > b.mark.subject_slug ? 1 : 0);

type Selection = {
  scored: Scored[];
  countedAs: Map<Scored, { class: string; note: string; position: number }>;
  unfilled: UnfilledSlot[];
  exact: number;
};

/** Every mark scored on the scheme, best first. */
function rank(scheme: ApsScheme, marks: readonly Mark[]): Scored[] {
  const compiled = compiledOf(scheme);
  return marks.map((m) => score(compiled, { subject_slug: m.subject_slug, percentage: m.percentage })).sort(better);
}

/** Fills the scheme's places from the ranked marks: the part of the calculation a score needs. */
function select(scheme: ApsScheme, ranked: readonly Scored[], required: ReadonlySet<string>): Selection {
  const compiled = compiledOf(scheme);
  const forced = scheme.required_subjects_counted ? required : NO_SUBJECTS;
  // Required subjects first, each part still best first.
  const scored =
    forced.size === 0
      ? [...ranked]
      : [...ranked.filter((s) => forced.has(s.mark.subject_slug)), ...ranked.filter((s) => !forced.has(s.mark.subject_slug))];
  const countedAs = new Map<Scored, { class: string; note: string; position: number }>();
  const unfilled: UnfilledSlot[] = [];

  // Slots are filled in scheme order, each with the best subjects its class still has: the scheme lists
  // the specific places first (English, Mathematics) and "best remaining" last.
  for (const [position, slot] of scheme.selection.entries()) {
    const subjects = compiled.slotSubjects[position] ?? NO_SUBJECTS;
    let taken = 0;
    for (const s of scored) {
      if (taken === slot.count) break;
      if (countedAs.has(s) || !subjects.has(s.mark.subject_slug)) continue;
      countedAs.set(s, { class: slot.class, note: slot.note, position });
      taken++;
    }
    if (taken < slot.count) unfilled.push({ class: slot.class, missing: slot.count - taken, note: slot.note });
  }

  let total = 0;
  for (const s of countedAs.keys()) total += s.value;
  const exact = round6(scheme.method === "percentage-average" ? total / compiled.places : total);
  return { scored, countedAs, unfilled, exact };
}

/** The score alone (computeAps's score and exact_score), without the per-subject breakdown. */
export function apsScoreOf(
  scheme: ApsScheme,
  marks: readonly Mark[],
  required: ReadonlySet<string> = NO_SUBJECTS,
): Pick<ApsComputation, "score" | "exact_score"> {
  return scorerOf(scheme, marks)(required);
}

/** apsScoreOf for one scheme and one set of marks with many sets of required subjects (a university's programmes
 * on a scheme that counts them): the marks are scored and ranked once. */
export function scorerOf(
  scheme: ApsScheme,
  marks: readonly Mark[],
): (required?: ReadonlySet<string>) => Pick<ApsComputation, "score" | "exact_score"> {
  const ranked = rank(scheme, marks);
  return (required = NO_SUBJECTS) => {
    const { exact } = select(scheme, ranked, required);
    return { score: Math.floor(exact), exact_score: exact };
  };
}

/**
 * `required`: subjects a programme requires, which a scheme that counts required subjects (UCT, Wits) places
 * before any other subject of the same slot, whether or not they are among the best.
 */
export function computeAps(scheme: ApsScheme, marks: readonly Mark[], required: ReadonlySet<string> = NO_SUBJECTS): ApsComputation {
  const { scored, countedAs, unfilled, exact } = select(scheme, rank(scheme, marks), required);
  const subjects = scored.map((s) => {
    const slot = countedAs.get(s);
    const breakdown: SubjectBreakdown = {
      subject_slug: s.mark.subject_slug,
      percentage: s.mark.percentage,
      scale_class: s.scale?.class ?? null,
      points: round6(s.value),
      bonus_points: round6(s.bonus),
      counted: slot !== undefined,
      counted_as: slot?.class ?? null,
      reason: slot ? `counted: ${slot.note}` : notCountedReason(scheme, s.mark.subject_slug),
    };
    return { breakdown, position: slot?.position ?? scheme.selection.length };
  });
  // Counted subjects first in selection order, the rest after; within each, best first (scored is sorted).
  const sorted = subjects
    .map((entry, rank) => ({ ...entry, rank }))
    .sort((x, y) => x.position - y.position || x.rank - y.rank)
    .map(({ breakdown }) => breakdown);

  return { score: Math.floor(exact), exact_score: exact, maximum: scheme.maximum, subjects: sorted, unfilled };
}

function notCountedReason(scheme: ApsScheme, subjectSlug: string): string {
  const slots = scheme.selection.filter((slot) => slot.subjects.includes(subjectSlug));
  if (slots.length === 0) {
    return subjectSlug === "life-orientation"
      ? "not counted: Life Orientation is excluded from this scheme"
      : "not counted: this scheme does not count this subject";
  }
  const places = slots.map((slot) => `${slot.note} (${slot.count})`).join("; ");
  return `not counted: other subjects earned more points for the places it could fill: ${places}`;
}
