// The APS engine: one university's scheme applied to a learner's marks. Pure and deterministic: the
// marks are copied and put in a fixed order first, so neither the caller's array nor its order can
// change the result.
import type { ApsScheme, Mark, ScaleAssignment, ScaleBand } from "./scheme.ts";

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

function scaleFor(scheme: ApsScheme, subjectSlug: string): ScaleAssignment | undefined {
  return scheme.scales.find((s) => s.subjects?.includes(subjectSlug)) ?? scheme.scales.find((s) => s.subjects === null);
}

type Scored = { mark: Mark; scale: ScaleAssignment | undefined; base: number; bonus: number; value: number };

function score(scheme: ApsScheme, mark: Mark): Scored {
  const scale = scaleFor(scheme, mark.subject_slug);
  const band = scale ? bandOf(scale.bands, mark.percentage) : undefined;
  const base = band ? pointsOnBand(band, mark.percentage) : 0;
  const whole = Math.floor(mark.percentage);
  const bonus = scheme.bonuses
    .filter((b) => b.subjects.includes(mark.subject_slug) && b.from <= whole && whole <= b.to)
    .reduce((sum, b) => sum + b.points, 0);
  return { mark, scale, base, bonus, value: base + bonus };
}

const NO_SUBJECTS: ReadonlySet<string> = new Set();

// Best first; ties go to the higher percentage, then to the subject slug, so the choice never depends
// on the order the marks arrived in.
const better = (a: Scored, b: Scored) =>
  b.value - a.value ||
  b.mark.percentage - a.mark.percentage ||
  (a.mark.subject_slug < b.mark.subject_slug ? -1 : a.mark.subject_slug > b.mark.subject_slug ? 1 : 0);

/**
 * `required`: subjects a programme requires, which a scheme that counts required subjects (UCT, Wits) places
 * before any other subject of the same slot, whether or not they are among the best.
 */
export function computeAps(scheme: ApsScheme, marks: readonly Mark[], required: ReadonlySet<string> = NO_SUBJECTS): ApsComputation {
  const forced = scheme.required_subjects_counted ? required : NO_SUBJECTS;
  const first = (a: Scored, b: Scored) => Number(forced.has(b.mark.subject_slug)) - Number(forced.has(a.mark.subject_slug));
  const scored = marks
    .map((m) => score(scheme, { subject_slug: m.subject_slug, percentage: m.percentage }))
    .sort((a, b) => first(a, b) || better(a, b));
  const countedAs = new Map<Scored, { class: string; note: string; position: number }>();
  const unfilled: UnfilledSlot[] = [];

  // Slots are filled in scheme order, each with the best subjects its class still has: the scheme lists
  // the specific places first (English, Mathematics) and "best remaining" last.
  for (const [position, slot] of scheme.selection.entries()) {
    const candidates = scored.filter((s) => !countedAs.has(s) && slot.subjects.includes(s.mark.subject_slug));
    const chosen = candidates.slice(0, slot.count);
    for (const s of chosen) countedAs.set(s, { class: slot.class, note: slot.note, position });
    if (chosen.length < slot.count) unfilled.push({ class: slot.class, missing: slot.count - chosen.length, note: slot.note });
  }

  const total = [...countedAs.keys()].reduce((sum, s) => sum + s.value, 0);
  const places = scheme.selection.reduce((n, slot) => n + slot.count, 0);
  const exact = round6(scheme.method === "percentage-average" ? total / places : total);

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
