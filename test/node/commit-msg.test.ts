// The commit-msg hook (.githooks/commit-msg, README "Contributing"): subjects of at most 72 characters, no
// final full stop, a blank second line and a body; merges and fixups pass as they are.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/test-dataset.ts";

const HOOK = path.join(ROOT, ".githooks", "commit-msg");

function check(message: string): { ok: boolean; stderr: string } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "commit-msg-")), "COMMIT_EDITMSG");
  writeFileSync(file, message);
  const result = spawnSync("sh", [HOOK, file], { encoding: "utf8" });
  return { ok: result.status === 0, stderr: result.stderr };
}

describe("the commit-msg hook", () => {
  it("accepts a short imperative subject, a blank line and a body", () => {
    expect(check("Parse settings once per isolate\n\nA bad value failed silently.\n# a comment git adds\n")).toEqual({ ok: true, stderr: "" });
    expect(check(`${"x".repeat(72)}\n\nWhy.\n`).ok).toBe(true);
  });

  it("refuses a long subject, a final full stop, a missing blank line or a missing body", () => {
    expect(check(`${"x".repeat(73)}\n\nWhy.\n`).stderr).toContain("the subject is 73 characters");
    expect(check("Parse settings once.\n\nWhy.\n").stderr).toContain("ends with a full stop");
    expect(check("Parse settings once\nWhy.\n").stderr).toContain("the second line must be blank");
    expect(check("Parse settings once\n").stderr).toContain("there is no body");
  });

  it("leaves merges and fixups alone", () => {
    expect(check("Merge wt-i29: a registry\n").ok).toBe(true);
    expect(check("fixup! Parse settings once\n").ok).toBe(true);
  });
});
