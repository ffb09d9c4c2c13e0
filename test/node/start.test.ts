// `npm start` and `npm run dev` leave the checkout as they found it (issue 28): the Worker's local secrets live in .keys/
// (git-ignored), not in .dev.vars, which `wrangler types` reads too and would fold into the committed
// worker-configuration.d.ts (then `npm run lint` fails and every start prints wrangler's "types might be out of
// date" hint). The test runs the command line npm run dev runs (support/wrangler-dev.ts; npm start runs the tests' own
// server, support/local-server.ts, which every HTTP test here uses), with a key of its own
// in a temporary env file and the test data set in place of dist/, and stops it as Ctrl-C would.
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../lib/ports.ts";
import { WRANGLER_OFFLINE_ENV } from "../../lib/wrangler-env.ts";
import { DEV_ENV_FILE, newSigningKey, writeDevEnvFile } from "../../support/signing-keys.ts";
import { prepareTestDataset, ROOT, TEST_DIST } from "../../support/test-dataset.ts";
import { signToken } from "../../support/tokens.ts";
import { wranglerDevArgs } from "../../support/wrangler-dev.ts";

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" });

describe("npm start", () => {
  it("keeps its local files where git and wrangler types do not look", () => {
    for (const file of [DEV_ENV_FILE, path.join(ROOT, ".keys", "dev-signing-key.json")]) {
      expect(() => git("check-ignore", "-q", path.relative(ROOT, file)), file).not.toThrow();
    }
    // wrangler types reads .dev.vars (and .dev.vars.<env>) or else .env files beside wrangler.jsonc.
    expect(path.dirname(DEV_ENV_FILE)).not.toBe(ROOT);
  });

  it("serves with the key from its env file, prints no types hint, and leaves git status as it was after Ctrl-C", async () => {
    await prepareTestDataset();
    const before = git("status", "--porcelain", "--untracked-files=all");
    const folder = await mkdtemp(path.join(os.tmpdir(), "start-test-"));
    const envFile = path.join(folder, "worker.env");
    const key = await newSigningKey("start-test");
    await writeDevEnvFile(key, envFile);
    const port = String(await freePort());
    const wrangler = spawn(process.execPath, wranglerDevArgs({ port, envFile, extra: ["--assets", path.relative(ROOT, TEST_DIST)] }), {
      cwd: ROOT,
      env: { ...process.env, ...WRANGLER_OFFLINE_ENV },
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => wrangler.on("exit", resolve));
    try {
      wrangler.stdout.on("data", (chunk) => (output += chunk));
      wrangler.stderr.on("data", (chunk) => (output += chunk));
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (output.includes("Ready on")) resolve(clearInterval(check));
          if (wrangler.exitCode !== null) reject(new Error(`wrangler dev stopped: ${output}`));
        }, 100);
      });
      const token = await signToken({ scopes: ["provinces:read"], env: "test", expiresInSeconds: 600, sub: "start-test" }, key);
      const response = await fetch(`http://127.0.0.1:${port}/v1/data/provinces`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
    } finally {
      wrangler.kill("SIGINT");
      await exited;
      await rm(folder, { recursive: true, force: true });
    }
    expect(output).not.toMatch(/types might be out of date/i);
    expect(output).not.toMatch(/\.dev\.vars/);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe(before);
  }, 120_000);
});
