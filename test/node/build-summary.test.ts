// The build's summary (issue 28: a quiet first start): one line per kind of warning with its count, the details
// with --verbose or in the warnings file it names, which is git-ignored.
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatSummary, WARNINGS_FILE, writeWarningsFile, type BuildResult } from "../../build/index.ts";
import { ROOT } from "../../support/test-dataset.ts";

const result: BuildResult = {
  ok: false,
  problems: [],
  seconds: 1,
  warnings: [
    { resource: "aps", kind: "universities scored with another year's scheme", message: "uct: intake 2027 with uct-2026" },
    { resource: "aps", kind: "universities scored with another year's scheme", message: "wits: intake 2026 with wits-2027" },
    { resource: "bursaries", kind: "bursaries citing http://", count: 10, message: "10 bursaries cite an http:// address (e.g. a)" },
  ],
};

describe("the build's warnings", () => {
  it("are summed up one line per kind, naming where the details are", () => {
    const text = formatSummary(result, { warningsFile: WARNINGS_FILE });
    const lines = text.split("\n");
    expect(lines).toContain("      2  [aps] universities scored with another year's scheme");
    expect(lines).toContain("     10  [bursaries] bursaries citing http://");
    expect(text).toContain(`details: ${WARNINGS_FILE}, or npm run build -- --verbose`);
    expect(text).not.toContain("uct: intake 2027");
  });

  it("are given in full with --verbose, and in the warnings file, grouped by kind", async () => {
    const verbose = formatSummary(result, { verbose: true });
    expect(verbose).toContain("uct: intake 2027 with uct-2026");
    expect(verbose).toContain("10 bursaries cite an http:// address (e.g. a)");
    const folder = await mkdtemp(path.join(os.tmpdir(), "build-summary-"));
    try {
      expect(await writeWarningsFile(folder, result)).toBe(WARNINGS_FILE);
      const file = await readFile(path.join(folder, WARNINGS_FILE), "utf8");
      expect(file.split("\n").slice(0, 3)).toEqual([
        "[aps] universities scored with another year's scheme (2):",
        "  uct: intake 2027 with uct-2026",
        "  wits: intake 2026 with wits-2027",
      ]);
      expect(await writeWarningsFile(folder, { ...result, warnings: [] })).toBeNull();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // Written in the checkout by npm run build and npm start: git must ignore it.
    expect(() => execFileSync("git", ["check-ignore", "-q", WARNINGS_FILE], { cwd: ROOT })).not.toThrow();
  });
});
