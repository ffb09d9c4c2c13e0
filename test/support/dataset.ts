// The data set the Worker tests and the local-server test run against: the committed sources/ plus the
// national datasets, built by the real pipeline into .test-dist/ (git-ignored), so tests never touch a
// developer's dist/. The national datasets are imported with the real importers from EDU_UPSTREAM_DIR
// (a folder with schools/ and postal-codes/, like ../shared/data) when it is set, and otherwise from the
// hand-written fixtures in test/fixtures/upstream, so the high-school and postal-code endpoints always
// have records to serve.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultBuildOptions, formatSummary, runBuild } from "../../build/index.ts";
import { importUpstream, localUpstream } from "../../nightly/upstream.ts";
import { todayInJohannesburg } from "../../lib/dates.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TEST_DIST = path.join(ROOT, ".test-dist");
export const TEST_IMPORTED = path.join(ROOT, ".test-data", "imported");
export const FIXTURE_UPSTREAM = path.join(ROOT, "test", "fixtures", "upstream");

/** The folder the test data set imports from, and whether it holds the real national files. */
export function upstreamFolder(env: NodeJS.ProcessEnv = process.env): { dir: string; real: boolean } {
  const dir = env.EDU_UPSTREAM_DIR?.trim();
  return dir ? { dir: path.resolve(dir), real: true } : { dir: FIXTURE_UPSTREAM, real: false };
}

/** Imports schools/ and postal-codes/ of the upstream folder into .test-data/imported. */
async function importNational(log: (line: string) => void): Promise<void> {
  const { dir, real } = upstreamFolder();
  log(
    real
      ? `national datasets: importing the real files in ${dir} (EDU_UPSTREAM_DIR)`
      : `national datasets: EDU_UPSTREAM_DIR is not set, so the test data set uses the hand-written fixtures in ${path.relative(ROOT, dir)}`,
  );
  await rm(TEST_IMPORTED, { recursive: true, force: true });
  const { schools, postalCodes } = await importUpstream(await localUpstream(dir), TEST_IMPORTED, todayInJohannesburg(new Date()));
  log(`  schools: ${schools.rows} rows in ${schools.seconds.toFixed(1)} s`);
  log(`  postal codes: ${postalCodes.rows} rows in ${postalCodes.seconds.toFixed(1)} s`);
}

/** Builds .test-dist/ unless it exists already (force: always). */
export async function prepareTestDataset(options: { force?: boolean; log?: (line: string) => void } = {}): Promise<void> {
  if (!options.force && existsSync(path.join(TEST_DIST, "manifest.json"))) return;
  const log = options.log ?? (() => {});
  await importNational(log);
  const result = await runBuild(defaultBuildOptions(ROOT, { outDir: TEST_DIST, importedDir: TEST_IMPORTED }));
  log(formatSummary(result));
  if (!result.ok) throw new Error(`the test data set did not build:${formatSummary(result)}`);
}
