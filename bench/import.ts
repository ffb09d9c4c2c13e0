// Import time for the real national files, importer by importer (importers/run.ts IMPORTERS): the DBE workbooks
// (schools/*.xlsx, *.csv), the SAPO list (postal-codes/*) and the NSC School Performance Report (nsc/*), read from
// EDU_UPSTREAM_DIR and written to a temporary folder (never to sources/).
// Runnable alone: EDU_UPSTREAM_DIR=/path/to/data npx tsx bench/import.ts
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DATASETS, type Dataset, IMPORTERS } from "../importers/run.ts";
import { importUpstream, localUpstream } from "../nightly/upstream.ts";
import { todayInJohannesburg } from "../lib/dates.ts";

/** Rows and seconds of each import (0 and 0 for one without files). */
export type ImportTimes = Record<Dataset, { rows: number; seconds: number }>;

/** Imports every dataset into keepIn (kept for the caller) or into a temporary folder removed afterwards. */
export async function benchImport(upstreamDir: string, keepIn?: string): Promise<ImportTimes> {
  const outDir = keepIn ?? (await mkdtemp(path.join(os.tmpdir(), "bench-import-")));
  try {
    const results = await importUpstream(await localUpstream(upstreamDir), outDir, todayInJohannesburg(new Date()));
    const times = {} as ImportTimes;
    for (const dataset of DATASETS) {
      const result = results[dataset];
      times[dataset] = { rows: result?.rows ?? 0, seconds: result?.seconds ?? 0 };
      console.log(`${`${IMPORTERS[dataset].rowsName}:`.padEnd(18)}${times[dataset].rows} rows in ${times[dataset].seconds.toFixed(2)} s`);
    }
    return times;
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
