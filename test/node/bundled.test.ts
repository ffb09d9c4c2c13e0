// scripts/bundled.mjs, which runs npm run build from an esbuild bundle of our modules: each module keeps its own
// import.meta.url, the arguments reach the entry point, a changed file is bundled again and an unchanged one is not,
// and an error's stack names the TypeScript file it was thrown in.
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeAll, tempDir } from "../../lib/files.ts";
import { ROOT } from "../../support/test-dataset.ts";

const LAUNCHER = path.join(ROOT, "scripts", "bundled.mjs");
let dir: string;
let cache: string;

beforeAll(async () => {
  [dir, cache] = await Promise.all([tempDir("bundled"), tempDir("bundle-cache")]);
  writeFileSync(
    path.join(dir, "entry.ts"),
    `import { answer, whereAmI } from "./nested/part.ts";
const [, , ...args] = process.argv;
if (args[0] === "throw") throw new Error("thrown on purpose");
console.log(JSON.stringify({ answer: answer satisfies number, part: whereAmI(), entry: import.meta.url, argv1: process.argv[1], args }));
`,
  );
  writePart(42);
});

afterAll(() => removeAll(dir, cache));

function writePart(answer: number): void {
  const nested = path.join(dir, "nested");
  mkdirSync(nested, { recursive: true });
  writeFileSync(path.join(nested, "part.ts"), `export const answer: number = ${answer};\nexport const whereAmI = (): string => import.meta.url;\n`);
}

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env: { ...process.env, EDU_BUNDLE_CACHE: cache } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const bundleFile = () => {
  const name = readdirSync(cache).find((f) => f.endsWith(".mjs"));
  if (!name) throw new Error("no bundle in the cache");
  return path.join(cache, name);
};

describe("scripts/bundled.mjs", () => {
  it("runs the entry point with its arguments, each module with its own import.meta.url", async () => {
    const { code, stdout, stderr } = await run(path.join(dir, "entry.ts"), "--flag", "value");
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      answer: 42,
      part: pathToFileURL(path.join(dir, "nested", "part.ts")).href,
      entry: pathToFileURL(path.join(dir, "entry.ts")).href,
      argv1: path.join(dir, "entry.ts"),
      args: ["--flag", "value"],
    });
  });

  it("uses the bundle it made while no file changed, and bundles again when one did", async () => {
    await run(path.join(dir, "entry.ts"));
    const made = statSync(bundleFile()).mtimeMs;
    expect(JSON.parse((await run(path.join(dir, "entry.ts"))).stdout).answer).toBe(42);
    expect(statSync(bundleFile()).mtimeMs).toBe(made);
    writePart(43);
    expect(JSON.parse((await run(path.join(dir, "entry.ts"))).stdout).answer).toBe(43);
    expect(statSync(bundleFile()).mtimeMs).not.toBe(made);
  });

  it("reports an error at its line in the TypeScript file", async () => {
    const { code, stderr } = await run(path.join(dir, "entry.ts"), "throw");
    expect(code).toBe(1);
    expect(stderr).toContain("thrown on purpose");
    expect(stderr).toContain(`${path.join(dir, "entry.ts")}:3`);
  });

  it("answers a missing entry point with its usage and exit code 2", async () => {
    const { code, stderr } = await run();
    expect(code).toBe(2);
    expect(stderr).toMatch(/^usage: node scripts\/bundled\.mjs ENTRY\.ts/);
  });
});
