// How a process's resident memory went through a load (bench/load.ts, load-start): bounded or growing.

/**
 * How workerd's resident memory went through the run: every sample, each minute's peak, and whether the last
 * minute's peak is still above the minute's before by LEVEL_MIB or more. Peaks, not single samples: the RSS
 * swings by 20 to 30 MiB between two samples as the garbage collectors run, which one sample against another
 * would read as growth or shrinkage. Bounded memory levels off; a leak raises every minute's peak by about the
 * same for as long as requests come.
 */
export function formatCurve(start: number, curve: readonly number[], every: number): string {
  if (curve.length === 0) return "    workerd RSS: no samples (a run shorter than one sample)";
  const perMinute = Math.max(1, Math.round(60 / every));
  const peaks: number[] = [];
  for (let at = 0; at < curve.length; at += perMinute) peaks.push(Math.max(...curve.slice(at, at + perMinute)));
  const [before, last] = peaks.slice(-2);
  const verdict =
    peaks.length < 3 || before === undefined || last === undefined
      ? "too short to tell whether it levels off (run at least three minutes)"
      : last - before < LEVEL_MIB
        ? `levelled off: the last minute's peak is ${signed(last - before)} MiB on the minute's before (under ${LEVEL_MIB})`
        : `STILL GROWING: the last minute's peak is ${signed(last - before)} MiB on the minute's before (${LEVEL_MIB} or more)`;
  return (
    `    workerd RSS every ${every} s (MiB): ${start.toFixed(0)} at start, ${curve.map((mib) => mib.toFixed(0)).join(", ")}\n` +
    `    each minute's peak (MiB): ${peaks.map((mib) => mib.toFixed(0)).join(", ")}; ${verdict}`
  );
}
const LEVEL_MIB = 10;
const signed = (mib: number) => `${mib >= 0 ? "+" : ""}${mib.toFixed(0)}`;
