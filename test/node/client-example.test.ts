// The README's client example, as printed, against the local server (issue 28): the package resolves from
// `npm install` alone (its `prepare` script builds client/dist/), and the example runs under tsx with a token
// of the scopes the README names. The block is taken from README.md, so the README cannot drift from it.
import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../support/local-server.ts";
import { ROOT } from "../../support/test-dataset.ts";

const run = promisify(execFile);
const CLIENT = path.join(ROOT, "client");

/** The newest modification time of the files under `folder`. */
async function newest(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return Math.max(0, ...entries.filter((e) => e.isFile()).map((e) => statSync(path.join(e.parentPath, e.name)).mtimeMs));
}

let server: LocalServer;
let folder: string;

beforeAll(async () => {
  // What `npm install` runs after installing: the root's prepare script. Run again only when client/dist/ is
  // missing or older than the client's sources (a checkout whose install predates a change to them).
  const dist = path.join(CLIENT, "dist");
  if (!existsSync(path.join(dist, "index.js")) || (await newest(dist)) < (await newest(path.join(CLIENT, "src")))) {
    await run("npm", ["run", "prepare"], { cwd: ROOT });
  }
  server = await startLocalServer("client-example-test");
  // A project of its own that installed the package (an ES module project, like the checkout, so top-level
  // await works), as npm links a workspace: node_modules/<name> -> client/.
  folder = await mkdtemp(path.join(os.tmpdir(), "client-example-"));
  await writeFile(path.join(folder, "package.json"), JSON.stringify({ type: "module", private: true }));
  await mkdir(path.join(folder, "node_modules"));
  await symlink(CLIENT, path.join(folder, "node_modules", "sa-edu-data-client"), "dir");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("the README's client example", () => {
  it("is what npm install's prepare script builds", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toMatch(/build --workspace client/);
    const client = JSON.parse(await readFile(path.join(CLIENT, "package.json"), "utf8")) as { exports: { ".": { default: string } } };
    expect(existsSync(path.join(CLIENT, client.exports["."].default))).toBe(true);
  });

  it("runs as printed with a token of the scopes the README names", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    const example = /```ts\n(import \{ ApiError, createClient \} from "sa-edu-data-client";[\s\S]*?)```/.exec(readme)?.[1];
    expect(example, "the client example in README.md").toBeDefined();
    const scopes = /--scopes ([a-z_:,]+)\) npx tsx that-file\.ts/.exec(readme)?.[1];
    expect(scopes, "the README's command for the example").toBeDefined();
    const file = path.join(folder, "example.ts");
    await writeFile(file, example ?? "");
    const { stdout } = await run(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), file], {
      cwd: folder,
      env: { ...process.env, API_URL: server.base, TOKEN: await server.token((scopes ?? "").split(",")) },
    });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^26 \[/);
    expect(lines).toContain("University of Cape Town");
    expect(lines.at(-1)).toBe("403 insufficient_scope []");
  });
});
