// npm start: serve the API locally on workerd, as a client would see it; npm run dev: the same with live reload.
//   1. builds dist/ from sources/ if there is no build yet (or puts back one an interrupted build parked)
//   2. creates the local development signing key on first run, and .keys/worker.env with its public key
//      (the Worker's local secrets; not .dev.vars, which `wrangler types` would fold into the committed types)
//   3. serves the API on http://127.0.0.1:8787 (PORT overrides) as the "test" environment, telemetry off: npm start
//      on workerd as the tests' server runs it (support/local-server.ts: Miniflare, a socket straight to the
//      Worker, no wrangler proxy), which holds the load bench; npm run dev (--dev) with `wrangler dev`, which
//      reloads on every change to functions/ or dist/ but whose proxy does not hold load (README, Commands)
//   4. serves the embed example (examples/embed/) on http://127.0.0.1:8788 (EMBED_PORT overrides), a site of
//      its own calling the API with a publishable token minted for it (a day's)
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../lib/root.ts";
import { DEV_ENV_FILE, ensureDevKeys } from "../support/signing-keys.ts";
import { wranglerDevArgs } from "../support/wrangler-dev.ts";
import { signToken } from "../support/tokens.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { EMBED_SCOPES, startEmbedExample } from "../support/embed-example.ts";
import { runCommand } from "../lib/cli.ts";

const USAGE = `usage: npm start [-- --help]
       npm run dev

Builds dist/ from sources/ if there is no build yet, creates the local signing key on first run, and serves
the API on http://127.0.0.1:8787 (PORT overrides) and the embed example on http://127.0.0.1:8788 (EMBED_PORT
overrides). Mint a token with npm run token. INSPECTOR_PORT opens workerd's V8 inspector on that port (Chrome
DevTools: a CPU profile or a heap snapshot of the Worker's isolate).
  --dev    (npm run dev) serve with wrangler dev instead, which reloads the Worker when functions/ or dist/
           change: for working on the Worker, not for load
  --help   this text`;

async function main(argv: string[]): Promise<number | undefined> {
  const { values } = parseArgs({ args: argv, options: { help: { type: "boolean" }, dev: { type: "boolean", default: false } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  // Imported once the arguments are read, so --help and a mistyped option answer at once, without loading the
  // build and miniflare (about 2 s of CPU each time; commands.test.ts runs every command twice).
  const [{ defaultBuildOptions, formatSummary, runBuild, writeWarningsFile }, { recoverInterruptedPublish }, { startApiServer }] = await Promise.all([
    import("../build/index.ts"),
    import("../build/publish.ts"),
    import("../support/local-server.ts"),
  ]);
  const options = defaultBuildOptions(ROOT);
  await recoverInterruptedPublish(options.outDir);
  if (!existsSync(path.join(options.outDir, "manifest.json"))) {
    console.log("No build in dist/ yet: building from sources/ ...");
    const result = await runBuild({ ...options, log: (line) => console.log(`  ${line}`) });
    const warningsFile = await writeWarningsFile(ROOT, result);
    console.log(formatSummary(result, warningsFile ? { warningsFile } : {}));
    if (!result.ok) return 1;
  }
  const key = await ensureDevKeys();
  const port = process.env.PORT ?? "8787";
  const embedPort = Number(process.env.EMBED_PORT ?? 8788);
  const embed = await startEmbedExample({
    api: `http://127.0.0.1:${port}`,
    port: embedPort,
    token: (origin) => signToken({ scopes: EMBED_SCOPES, origins: [origin], env: "test", expiresInSeconds: 86_400, sub: "embed-example" }, key),
  }).catch((error: unknown) => {
    throw new Error(
      `the embed example could not listen on 127.0.0.1:${embedPort} (set EMBED_PORT to another port): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  console.log(`\nStarting the API on http://127.0.0.1:${port} (tokens: npm run token -- --scopes universities:read)`);
  console.log(`The embed example (examples/embed/, a partner's page calling the API with a publishable token): ${embed.origin}/\n`);
  if (values.dev) return devServer(port, () => embed.stop());
  const inspector = process.env.INSPECTOR_PORT ? Number(process.env.INSPECTOR_PORT) : undefined;
  const server = await startApiServer(Number(port), key, inspector);
  if (inspector) console.log(`workerd's V8 inspector (one target per isolate): http://127.0.0.1:${inspector}/json/list`);
  console.log(`Ready on ${server.base}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await Promise.all([server.stop(), embed.stop()]);
  return 0;
}

/** npm run dev: wrangler dev, with live reload; it exits with wrangler's code. */
function devServer(port: string, stopEmbed: () => Promise<void>): Promise<number> {
  const wrangler = spawn(process.execPath, wranglerDevArgs({ port, envFile: DEV_ENV_FILE }), {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...WRANGLER_OFFLINE_ENV },
  });
  const stop = () => wrangler.kill("SIGTERM");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return new Promise((resolve) =>
    wrangler.on("exit", (code) => {
      void stopEmbed().then(() => resolve(code ?? 0));
    }),
  );
}

runCommand(USAGE, main);
