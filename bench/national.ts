// National scale: import the real DBE workbooks, SAPO list and NSC report from EDU_UPSTREAM_DIR, build them
// with the committed sources (the fresh import as the override folder), and compare the build with a plain copy of the same dist/ by `cp -r` (the physical baseline:
// writing those files and bytes with no parsing, validation or JSON work). Runnable alone:
// EDU_UPSTREAM_DIR=/path/to/data npx tsx bench/national.ts
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DATASETS, IMPORTERS } from "../importers/run.ts";
import { benchImport } from "./import.ts";
import { copySeconds, measureBuild } from "./build.ts";
import { ROOT } from "../support/test-dataset.ts";
import { removeAll, tempDir } from "../lib/files.ts";

const FREE_PLAN_FILES = 20_000;

export async function benchNational(upstreamDir = process.env.EDU_UPSTREAM_DIR): Promise<void> {
  if (!upstreamDir) {
    console.log("national: skipped, set EDU_UPSTREAM_DIR to a folder with schools/, postal-codes/ and nsc/ (like ../shared/data)");
    return;
  }
  const work = await tempDir("bench-national");
  try {
    const imported = path.join(work, "imported");
    const counts = await benchImport(upstreamDir, imported);
    const dist = path.join(work, "dist");
    const build = measureBuild(path.join(ROOT, "sources"), imported, dist);
    if (!build.ok) throw new Error("the national build failed; run npm run build with the same data to see why");

    const copy = copySeconds(dist, path.join(work, "dist-copy"));

    const importSeconds = Object.values(counts).reduce((sum, c) => sum + c.seconds, 0);
    const each = DATASETS.map((d) => `${IMPORTERS[d].rowsName} ${counts[d].seconds.toFixed(2)} s`).join(", ");
    console.log(`\nNational data (${DATASETS.map((d) => `${counts[d].rows.toLocaleString("en")} ${IMPORTERS[d].rowsName}`).join(", ")})`);
    console.log(`  import          ${importSeconds.toFixed(2).padStart(7)} s   (${each})`);
    console.log(`  build           ${build.seconds.toFixed(2).padStart(7)} s   peak RSS ${build.maxRssMiB.toFixed(0)} MiB`);
    console.log(
      `  output          ${String(build.files).padStart(7)} files (${((100 * (build.files ?? 0)) / FREE_PLAN_FILES).toFixed(0)}% of the free plan's ${FREE_PLAN_FILES.toLocaleString("en")}), ${((build.bytes ?? 0) / 1024 / 1024).toFixed(1)} MiB`,
    );
    console.log(`  plain copy      ${copy.toFixed(2).padStart(7)} s   of the same dist/ with cp -r (physical baseline)`);
    console.log(`  build / copy    ${(build.seconds / copy).toFixed(1).padStart(7)} x`);
  } finally {
    await removeAll(work);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchNational();
