// The test files that hold property tests (fast-check's fc.assert), for npm run fuzz (scripts/fuzz.ts), which
// runs them with more runs and a fresh seed.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../lib/root.ts";

/** The test files below `folder` (relative to the root, e.g. "test/node") whose name ends in `suffix` and that
 * hold a property, sorted. */
export function propertyTestFiles(folder: string, suffix: string, root: string = ROOT): string[] {
  return readdirSync(path.join(root, folder))
    .filter((name) => name.endsWith(suffix) && readFileSync(path.join(root, folder, name), "utf8").includes("fc.assert("))
    .map((name) => path.join(folder, name))
    .sort();
}
