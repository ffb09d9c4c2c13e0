// The data set the Worker tests and the local-server test run against: the committed sources/, national
// tables included (high schools, postal codes, NSC results), built by the real pipeline into .test-dist/
// (git-ignored), so tests never touch a developer's dist/. The importers are tested on their own (on the
// hand-written fixtures in test/fixtures/upstream, and on the real files in EDU_UPSTREAM_DIR, where a fresh
// import is compared with the committed tables), so the data set does not import anything and builds the
// same with or without EDU_UPSTREAM_DIR.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { defaultBuildOptions, formatSummary, runBuild } from "../build/index.ts";

export { ROOT } from "../lib/root.ts";
import { ROOT } from "../lib/root.ts";
export const TEST_DIST = path.join(ROOT, ".test-dist");
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

/** Builds .test-dist/ from the committed sources unless it is there and newer than everything it is built from
 * (force: always). */
export async function prepareTestDataset(options: { force?: boolean; log?: (line: string) => void } = {}): Promise<void> {
  const manifest = path.join(TEST_DIST, "manifest.json");
  if (!options.force && existsSync(manifest) && !stale(manifest)) return;
  const log = options.log ?? (() => {});
  log("the committed sources/, national tables included");
  const result = await runBuild(defaultBuildOptions(ROOT, { outDir: TEST_DIST }));
  log(formatSummary(result));
  if (!result.ok) throw new Error(`the test data set did not build:${formatSummary(result)}`);
}
