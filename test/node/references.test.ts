// Paths the project's code and documents name (`support/tokens.ts`, `domain/id-number-cases.ts`) exist: a
// file that moved leaves no comment or README line pointing at its old place (issue 28). Research notes are
// records of their time and are not checked; a path written after another folder (`dist/docs/index.html`) is
// not the repository's.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../../support/test-dataset.ts";

const FOLDERS = "build|domain|lib|functions|scripts|support|test|importers|nightly|schema|docs|bench|client|examples";
const REFERENCE = new RegExp(`(?<![\\w./-])(?:${FOLDERS})/[A-Za-z0-9_./-]+\\.(?:ts|md|csv|json|jsonc|js|html)\\b`, "g");

it("every repository path named in code and documents exists", () => {
  const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.(ts|md|jsonc?)$/.test(f) && !/^(research|sources)\//.test(f) && !f.includes("/generated/"));
  const missing: string[] = [];
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue;
    for (const match of readFileSync(path.join(ROOT, file), "utf8").matchAll(REFERENCE)) {
      if (!existsSync(path.join(ROOT, match[0]))) missing.push(`${file}: ${match[0]}`);
    }
  }
  expect(missing).toEqual([]);
});
