// Import time for the real national files: the DBE workbooks (schools/*.xlsx, *.csv) and the SAPO list
// (postal-codes/*), read from EDU_UPSTREAM_DIR and written to a temporary folder (never to sources/).
// Runnable alone: EDU_UPSTREAM_DIR=/path/to/data npx tsx bench/import.ts
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runImport } from "../scripts/import.ts";
import { todayInJohannesburg } from "../lib/dates.ts";

/** Imports both datasets into keepIn (kept for the caller) or into a temporary folder removed afterwards. */
export async function benchImport(
  upstreamDir: string,
  keepIn?: string,
): Promise<{ schoolsSeconds: number; postalSeconds: number; schools: number; postalCodes: number }> {
  const outDir = keepIn ?? (await mkdtemp(path.join(os.tmpdir(), "bench-import-")));
  const verifiedOn = todayInJohannesburg(new Date());
  try {
    const schools = await runImport({ dataset: "schools", inputs: [path.join(upstreamDir, "schools")], outDir, verifiedOn });
    console.log(`schools:      ${schools.rows} rows in ${schools.seconds.toFixed(2)} s`);

    const postalFolder = path.join(upstreamDir, "postal-codes");
    const postalFile = (await readdir(postalFolder))
      .filter((name) => /\.(csv|xls|xlsx)$/i.test(name))
      .sort()
      .map((name) => path.join(postalFolder, name))[0];
    if (postalFile === undefined) throw new Error(`no .csv/.xls/.xlsx file in ${postalFolder}`);
    const postal = await runImport({ dataset: "postal-codes", inputs: [postalFile], outDir, verifiedOn });
    console.log(`postal codes: ${postal.rows} rows in ${postal.seconds.toFixed(2)} s`);
    return { schoolsSeconds: schools.seconds, postalSeconds: postal.seconds, schools: schools.rows, postalCodes: postal.rows };
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
