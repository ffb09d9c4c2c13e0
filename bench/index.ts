// npm run bench: the figures users wait for, printed in one run. Each part is also runnable alone
// (npx tsx bench/<part>.ts), or by name: npm run bench -- build national. Parts that need the national
// files read EDU_UPSTREAM_DIR and say so when it is not set.
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand, UsageError } from "../lib/cli.ts";
import { removeAll, tempDir } from "../lib/files.ts";

const USAGE = `usage: npm run bench -- [PART ...] [--seconds N] [--connections N]

Prints the figures users wait for, side by side in one run. With no PART, every part but load.
  PART               build, national, worker, aps, id-parse, releases, peer, load, load-start (the two loads
                     run only when named; load-start runs the same load against npm start itself)
  --seconds N        load, load-start: how long the mixed load runs (default 60)
  --connections N    load, load-start: concurrent connections (default 32)
  --help             this text`;

const load = { seconds: 60, connections: 32 };

// Each part imports its modules when it runs, so --help, a mistyped option and a single part load only what they
// need (all of them, wrangler's and miniflare's included, took about 3 s of CPU before the arguments were read).
const parts: [string, () => Promise<unknown>][] = [
  ["build", async () => (await import("./build.ts")).benchBuild()],
  ["national", async () => (await import("./national.ts")).benchNational()],
  [
    "worker",
    async () => {
      await (await import("./worker.ts")).benchWorker();
      await (await import("./find.ts")).benchFind();
    },
  ],
  [
    "aps",
    async () => {
      // A fresh build of the committed sources, so the figure is for today's largest university.
      const [{ benchAps }, { defaultBuildOptions, runBuild }, { ROOT }] = await Promise.all([
        import("./aps.ts"),
        import("../build/index.ts"),
        import("../support/test-dataset.ts"),
      ]);
      const work = await tempDir("bench-aps");
      try {
        const result = await runBuild(defaultBuildOptions(ROOT, { outDir: path.join(work, "dist"), importedDir: path.join(work, "none") }));
        if (!result.ok) throw new Error("the build failed; run npm run build to see why");
        await benchAps(path.join(work, "dist"));
      } finally {
        await removeAll(work);
      }
    },
  ],
  ["id-parse", async () => (await import("./id-parse.ts")).benchIdParse()],
  ["releases", async () => (await import("./releases.ts")).benchReleases()],
  // Our Worker against a plain Node + SQLite FTS5 server on the same data and URLs (issue 31's table).
  [
    "peer",
    async () => {
      if (!(await (await import("./peer.ts")).benchPeer())) process.exitCode = 1;
    },
  ],
  // 60 s of 32-connection load: only when named (npm run bench -- load), so a full run stays short.
  [
    "load",
    async () => {
      if (!(await (await import("./load.ts")).benchLoad(load.seconds, load.connections))) process.exitCode = 1;
    },
  ],
  // The same load against `npm start` itself, as a user runs it: only when named.
  [
    "load-start",
    async () => {
      if (!(await (await import("./load.ts")).benchLoadAgainstStart(load.seconds, load.connections))) process.exitCode = 1;
    },
  ],
];
const ONLY_WHEN_NAMED = new Set(["load", "load-start"]);

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} needs a whole number of at least 1, not ${JSON.stringify(value)}`);
  return n;
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: "boolean" }, seconds: { type: "string" }, connections: { type: "string" } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  load.seconds = positiveInteger("seconds", values.seconds, load.seconds);
  load.connections = positiveInteger("connections", values.connections, load.connections);
  const unknown = positionals.filter((name) => !parts.some(([part]) => part === name));
  if (unknown.length > 0)
    throw new UsageError(`unknown bench part(s): ${unknown.join(", ")}; the parts are ${parts.map(([name]) => name).join(", ")}`);
  for (const [name, run] of parts) {
    if (positionals.length > 0 ? !positionals.includes(name) : ONLY_WHEN_NAMED.has(name)) continue;
    console.log(`\n##### ${name}`);
    await run();
  }
  return undefined;
});
