// The data set the Worker tests and the local-server test run against: the committed sources/, built
// by the real pipeline into .test-dist/ (git-ignored), so tests never touch a developer's dist/.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultBuildOptions, formatSummary, runBuild } from "../../build/index.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TEST_DIST = path.join(ROOT, ".test-dist");
export const TEST_IMPORTED = path.join(ROOT, ".test-data", "imported");

/** Builds .test-dist/ unless it exists already (force: always). */
export async function prepareTestDataset(options: { force?: boolean; log?: (line: string) => void } = {}): Promise<void> {
  if (!options.force && existsSync(path.join(TEST_DIST, "manifest.json"))) return;
  const result = await runBuild(defaultBuildOptions(ROOT, { outDir: TEST_DIST, importedDir: TEST_IMPORTED }));
  options.log?.(formatSummary(result));
  if (!result.ok) throw new Error(`the test data set did not build:${formatSummary(result)}`);
}
