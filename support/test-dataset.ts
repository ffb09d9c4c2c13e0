// The data set the Worker tests and the local-server test run against: the committed sources/, national
// tables included (high schools, postal codes, NSC results), built by the real pipeline into .test-dist/
// (git-ignored), so tests never touch a developer's dist/. The importers are tested on their own (on the
// hand-written fixtures in test/fixtures/upstream, and on the real files in EDU_UPSTREAM_DIR, where a fresh
// import is compared with the committed tables), so the data set does not import anything and builds the
// same with or without EDU_UPSTREAM_DIR.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { defaultBuildOptions, formatSummary, runBuild } from "../build/index.ts";
import { copyOfSources } from "../lib/files.ts";

export { ROOT } from "../lib/root.ts";
import { ROOT } from "../lib/root.ts";
export const TEST_DIST = path.join(ROOT, ".test-dist");
/** Where prepareTestDataset notes the date it built with (git-ignored, outside .test-dist/ so that holds the build alone). */
const BUILT_ON = path.join(ROOT, ".test-data", "test-dist.json");

export const FIXTURE_UPSTREAM = path.join(ROOT, "test", "fixtures", "upstream");

/** The folders whose change makes a built data set stale: the tables and the code that builds them. */
const BUILT_FROM = ["sources", "build", "domain", "lib", "schema"].map((folder) => path.join(ROOT, folder));

/** Whether a file the data set is built from changed after it was built (a test run alone after a pull or an edit
 * would otherwise read an old build). */
function stale(manifest: string): boolean {
  const built = statSync(manifest).mtimeMs;
  return BUILT_FROM.some((folder) =>
    readdirSync(folder, { recursive: true, withFileTypes: true }).some(
      (entry) => entry.isFile() && statSync(path.join(entry.parentPath, entry.name)).mtimeMs > built,
    ),
  );
}

/** Set by npm test for its two suites once it has prepared the data set: a file edited while they run must not make a
 * test file rebuild .test-dist/ under the other suite's server, whose answers would then be 500s. */
export const DATASET_PREPARED_ENV = "EDU_TEST_DATASET_PREPARED";

/** Builds .test-dist/ from the committed sources unless it is there and newer than everything it is built from (or
 * npm test prepared it for this run). */
export async function prepareTestDataset(options: { log?: (line: string) => void } = {}): Promise<void> {
  const manifest = path.join(TEST_DIST, "manifest.json");
  const log = options.log ?? (() => {});
  if (process.env[DATASET_PREPARED_ENV] === "1" && existsSync(manifest) && existsSync(BUILT_ON)) return;
  if (existsSync(manifest) && existsSync(BUILT_ON) && !stale(manifest)) {
    log(".test-dist/ is newer than everything it is built from: kept");
    return;
  }
  log("the committed sources/, national tables included");
  const buildOptions = defaultBuildOptions(ROOT, { outDir: TEST_DIST });
  const result = await runBuild(buildOptions);
  log(formatSummary(result));
  if (!result.ok) throw new Error(`the test data set did not build:${formatSummary(result)}`);
  mkdirSync(path.dirname(BUILT_ON), { recursive: true });
  writeFileSync(BUILT_ON, `${JSON.stringify({ today: buildOptions.today })}\n`);
}

/** The date (the build's `today`) .test-dist/ was built with: a build of the committed sources with this date must
 * give the same bytes (test/node/build.test.ts). */
export function testDatasetToday(): string {
  return (JSON.parse(readFileSync(BUILT_ON, "utf8")) as { today: string }).today;
}

/** The university whose programmes a small copy of sources/ keeps (one with witnesses of its own). */
const SMALL_CATALOGUE_UNIVERSITY = "sol-plaatje-university";

/**
 * A copy of sources/ (national tables with `national`) whose programme catalogue is one university's (`university`,
 * by default Sol Plaatje's): every
 * other table as committed, but the qualifications, evidence and witness files of the other universities left out
 * (the shared witness projects kept). It builds like the whole, in a fifth of the time: for tests that modify
 * sources and build them, whose subject is not the catalogue's breadth (the nightly rebuild, broken builds).
 */
export async function smallSources(options: { national?: boolean; university?: string } = {}): Promise<string> {
  const dir = await copyOfSources(options);
  const kept = `${options.university ?? SMALL_CATALOGUE_UNIVERSITY}.csv`;
  for (const folder of ["qualifications", "evidence", "witnesses"]) {
    for (const name of readdirSync(path.join(dir, folder))) {
      if (name !== kept && name !== "projects.csv") rmSync(path.join(dir, folder, name));
    }
  }
  return dir;
}
