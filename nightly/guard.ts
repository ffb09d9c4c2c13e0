// Step 5 of the nightly rebuild: the guard. A nightly job must never publish a shrunken data set: when
// an upstream file is truncated, a column is renamed or a province's workbook goes missing, the import
// still "succeeds" with fewer rows. Any resource that loses more than the allowed share of its
// published records stops the publication, unless a person overrides it on purpose (--allow-drop).
import type { BuildDiff } from "./diff.ts";

export type Loss = { resource: string; oldTotal: number; newTotal: number; lost: number; share: number };

/** Records lost: removed ones when the builds can be compared record by record, else the fall in total. */
export function losses(diff: BuildDiff): Loss[] {
  const result: Loss[] = [];
  for (const r of diff.resources) {
    if (r.oldTotal === null || r.oldTotal === 0) continue;
    const lost = Math.max(r.removed, r.oldTotal - r.newTotal, 0);
    if (lost > 0) result.push({ resource: r.resource, oldTotal: r.oldTotal, newTotal: r.newTotal, lost, share: lost / r.oldTotal });
  }
  return result;
}

/** The losses over the allowed share (0.1 = 10%), each as a sentence naming the resource. */
export function guardLosses(diff: BuildDiff, maxDropShare: number): string[] {
  return losses(diff)
    .filter((loss) => loss.share > maxDropShare)
    .map(
      (loss) =>
        `${loss.resource} would lose ${loss.lost.toLocaleString("en")} of its ${loss.oldTotal.toLocaleString("en")} published records ` +
        `(${(loss.share * 100).toFixed(1)}%, more than the allowed ${(maxDropShare * 100).toFixed(0)}%): ${loss.oldTotal.toLocaleString("en")} -> ${loss.newTotal.toLocaleString("en")}`,
    );
}

/** Resources below their configured floor, each as a sentence naming the resource. */
export function guardFloors(diff: BuildDiff, minRecords: Record<string, number>): string[] {
  const totals = new Map(diff.resources.map((r) => [r.resource, r.newTotal]));
  return Object.entries(minRecords)
    .filter(([resource, floor]) => (totals.get(resource) ?? 0) < floor)
    .map(
      ([resource, floor]) =>
        `${resource} would have ${(totals.get(resource) ?? 0).toLocaleString("en")} records, fewer than its floor of ${floor.toLocaleString("en")} (guard.min_records in the upstream config)`,
    );
}
