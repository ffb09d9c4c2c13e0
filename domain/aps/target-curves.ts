// What the targets search (targets.ts) knows about a subject on a programme's scheme: the marks where some rule's
// outcome can change (its breakpoints), how its points rise with its mark (its curve), and from those a lower bound
// on the cost of the score still missing. Pure.
import { schemeOf } from "./judging.ts";
import type { ApsQualification, ApsScheme, ApsUniversityDocument } from "./scheme.ts";

/** The marks at which some rule's outcome can change for this subject, on this programme's scheme, by what they
 * serve: a requirement's minimum (of any option naming it, or a rule whose class holds it), or the score (an edge of
 * its scale's bands, a bonus). `linear`: its scale scores every percentage point. */
export type Breakpoints = { requirement: number[]; score: number[]; linear: boolean };

export function breakpointsOf(document: ApsUniversityDocument, q: ApsQualification, slug: string): Breakpoints {
  const requirement = new Set<number>();
  for (const r of q.requirements) if (r.subject_slug === slug) requirement.add(r.min_percentage);
  for (const g of q.general_requirements ?? []) if ((document.rule_subjects?.[g.rule] ?? []).includes(slug)) requirement.add(g.min_percentage);
  const scheme = schemeOf(document, q);
  const score = new Set<number>();
  let linear = false;
  for (const scale of scheme.scales) {
    if (scale.subjects !== null && !scale.subjects.includes(slug)) continue;
    for (const band of scale.bands) {
      score.add(band.from);
      if (band.points_per_percent !== null) linear = true;
    }
  }
  for (const bonus of scheme.bonuses) if (bonus.subjects.includes(slug)) score.add(bonus.from);
  const sorted = (set: Set<number>) => [...set].filter((m) => m > 0 && m <= 100).sort((a, b) => a - b);
  return { requirement: sorted(requirement), score: sorted(score), linear };
}

/** How a subject's points rise with its mark on a scheme: its scale's points at each whole percentage 0..100, and
 * the bonuses it can earn (mark, points). */
export type PointsCurve = { points: Float64Array; bonuses: { from: number; points: number }[] };

export function curveOf(scheme: ApsScheme, slug: string): PointsCurve {
  const scale = scheme.scales.find((s) => s.subjects?.includes(slug)) ?? scheme.scales.find((s) => s.subjects === null);
  const points = new Float64Array(101);
  for (let p = 0; p <= 100; p++) {
    const band = scale?.bands.find((b) => b.from <= p && p <= b.to);
    points[p] = band === undefined ? 0 : (band.points ?? p * (band.points_per_percent ?? 0));
  }
  return { points, bonuses: scheme.bonuses.filter((b) => b.subjects.includes(slug)).map((b) => ({ from: b.from, points: b.points })) };
}

/**
 * A lower bound on the percentage points that still raise the score by `missing` (A* search's heuristic): every
 * step up of every subject's points (the next mark where they rise, and the gain there) as if each counted and each
 * could be taken alone, cheapest per point first, a fraction of the last. Relaxing the order of a subject's steps and
 * which subjects count only makes it cheaper, so it never says more than the truth.
 */
export function costOfScore(curves: readonly PointsCurve[], values: readonly number[], missing: number, perPlace: number): number {
  if (missing <= 0) return 0;
  const steps: { cost: number; gain: number }[] = [];
  curves.forEach((curve, i) => {
    const from = values[i] as number;
    let at = from;
    let points = curve.points[Math.floor(from)] as number;
    for (let p = Math.floor(from) + 1; p <= 100; p++) {
      const gain = (curve.points[p] as number) - points;
      if (gain > 1e-12) {
        steps.push({ cost: p - at, gain: gain / perPlace });
        at = p;
        points = curve.points[p] as number;
      }
    }
    for (const b of curve.bonuses) if (b.from > from) steps.push({ cost: b.from - from, gain: b.points / perPlace });
  });
  steps.sort((a, b) => a.cost / a.gain - b.cost / b.gain);
  let cost = 0;
  let left = missing;
  for (const step of steps) {
    if (step.gain >= left) return cost + (step.cost * left) / step.gain;
    cost += step.cost;
    left -= step.gain;
  }
  return Number.POSITIVE_INFINITY;
}

/** How much subject i's points (scale and bonuses) rise from mark a to mark b, over the places averaged. */
export function rise(curve: PointsCurve, a: number, b: number, perPlace: number): number {
  let points = (curve.points[Math.floor(b)] as number) - (curve.points[Math.floor(a)] as number);
  for (const bonus of curve.bonuses) if (bonus.from > a && bonus.from <= b) points += bonus.points;
  return points / perPlace;
}
