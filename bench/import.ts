// Import time for the real national files: the DBE workbooks (schools/*.xlsx, *.csv), the SAPO list
// (postal-codes/*) and the NSC School Performance Report (nsc/*), read from EDU_UPSTREAM_DIR and written
// to a temporary folder (never to sources/).
// Runnable alone: EDU_UPSTREAM_DIR=/path/to/data npx tsx bench/import.ts
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importUpstream, localUpstream } from "../nightly/upstream.ts";
import { todayInJohannesburg } from "../lib/dates.ts";

/** Imports both datasets into keepIn (kept for the caller) or into a temporary folder removed afterwards. */
export async function benchImport(
  upstreamDir: string,
  keepIn?: string,
): Promise<{ schoolsSeconds: number; postalSeconds: number; nscSeconds: number; schools: number; postalCodes: number; nscRows: number }> {
  const outDir = keepIn ?? (await mkdtemp(path.join(os.tmpdir(), "bench-import-")));
  try {
    const { schools, postalCodes, nsc } = await importUpstream(await localUpstream(upstreamDir), outDir, todayInJohannesburg(new Date()));
    console.log(`schools:      ${schools.rows} rows in ${schools.seconds.toFixed(2)} s`);
    console.log(`postal codes: ${postalCodes.rows} rows in ${postalCodes.seconds.toFixed(2)} s`);
    console.log(`NSC results:  ${nsc?.rows ?? 0} rows in ${(nsc?.seconds ?? 0).toFixed(2)} s`);
    return {
      schoolsSeconds: schools.seconds,
      postalSeconds: postalCodes.seconds,
      nscSeconds: nsc?.seconds ?? 0,
      schools: schools.rows,
      postalCodes: postalCodes.rows,
      nscRows: nsc?.rows ?? 0,
    };
  } finally {
    if (keepIn === undefined) await rm(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const upstream = process.env.EDU_UPSTREAM_DIR;
  if (!upstream) {
    console.log("bench/import: skipped, set EDU_UPSTREAM_DIR to a folder with schools/ and postal-codes/ (like /work/shared/data)");
  } else {
    await benchImport(upstream);
  }
}
