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

/**
 * The parts that would lose more than their own share (issue 30: one province's workbook cut to its header
 * is under 5% of all schools, and a postal list cut to 91% under the 10% of the total). `before` and `after`
 * count each part (a province's schools, a table's rows); a part that is new or was empty is no loss.
 */
export function guardGroups(what: string, before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>, maxShare: number): string[] {
  const refusals: string[] = [];
  for (const [group, old] of [...before].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const now = after.get(group) ?? 0;
    if (old <= 0 || now >= old) continue;
    const share = (old - now) / old;
    if (share > maxShare)
      refusals.push(
        `${what} ${group} would fall from ${old.toLocaleString("en")} to ${now.toLocaleString("en")} ` +
          `(${(share * 100).toFixed(1)}%, more than the ${(maxShare * 100).toFixed(0)}% one part may lose: guard.max_group_drop_share)`,
      );
  }
  return refusals;
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
