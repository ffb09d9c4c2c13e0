// Every command-line entry point of package.json answers --help with its usage and exit code 0, and an unknown
// option with exit code 2 (issue 13): run as npm runs them.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/test-dataset.ts";

const scripts = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
// The commands that are our own entry points ("node --import tsx scripts/token.ts"; npm run build from a bundle,
// scripts/bundled.mjs), not a tool's (vitest, biome, wrangler).
const entryPoints = Object.entries(scripts).flatMap(([name, command]) => {
  const match = /^node (?:--import tsx|scripts\/bundled\.mjs) ((?:scripts|bench)\/[\w-]+\.ts)$/.exec(command);
  return match?.[1] ? [[name, command.split(" ").slice(1)] as const] : [];
});
/** The command as npm runs it: Node with package.json's arguments, then the command's own. */
function run(nodeArgs: readonly string[], args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("command-line entry points", () => {
  it("are the ones package.json names, each run by Node with tsx as its loader or from a bundle", () => {
    // The tsx command line would start a second Node process for each: half a second before any of our code runs.
    expect(Object.entries(scripts).filter(([, command]) => /^tsx /.test(command))).toEqual([]);
    expect(entryPoints.map(([name]) => name)).toEqual(
      expect.arrayContaining(["build", "start", "test", "bench", "token", "import", "keys", "rebuild", "fuzz", "client:generate", "lint:openapi"]),
    );
  });

  it("answer --help with their usage (exit 0) and an unknown option with exit code 2", { timeout: 300_000 }, async () => {
    const results = await Promise.all(
      entryPoints.map(async ([name, nodeArgs]) => ({ name, help: await run(nodeArgs, ["--help"]), bad: await run(nodeArgs, ["--no-such-option"]) })),
    );
    for (const { name, help, bad } of results) {
      expect(help.code, `${name} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout, name).toMatch(/^usage:/);
      expect(bad.code, `${name} --no-such-option: ${bad.stdout}${bad.stderr}`).toBe(2);
    }
  });
});
