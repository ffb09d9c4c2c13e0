// npm run bench: the figures users wait for, printed in one run. Each part is also runnable alone
// (npx tsx bench/<part>.ts), or by name: npm run bench -- build national. Parts that need the national
// files read EDU_UPSTREAM_DIR and say so when it is not set.
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand, UsageError } from "../lib/cli.ts";
import { benchAps } from "./aps.ts";
import { benchBuild } from "./build.ts";
import { benchFind } from "./find.ts";
import { benchIdParse } from "./id-parse.ts";
import { benchLoad, benchLoadAgainstStart } from "./load.ts";
import { benchNational } from "./national.ts";
import { benchPeer } from "./peer.ts";
import { benchReleases } from "./releases.ts";
import { benchWorker } from "./worker.ts";
import { defaultBuildOptions, runBuild } from "../build/index.ts";
import { ROOT } from "../support/test-dataset.ts";
import { removeAll, tempDir } from "../lib/files.ts";

const USAGE = `usage: npm run bench -- [PART ...] [--seconds N] [--connections N]

Prints the figures users wait for, side by side in one run. With no PART, every part but load.
  PART               build, national, worker, aps, id-parse, releases, peer, load, load-start (the two loads
                     run only when named; load-start runs the same load against npm start itself)
  --seconds N        load, load-start: how long the mixed load runs (default 60)
  --connections N    load, load-start: concurrent connections (default 32)
  --help             this text`;

const load = { seconds: 60, connections: 32 };

const parts: [string, () => Promise<unknown>][] = [
  ["build", benchBuild],
  ["national", () => benchNational()],
  [
    "worker",
    async () => {
      await benchWorker();
      await benchFind();
    },
  ],
  [
    "aps",
    async () => {
      // A fresh build of the committed sources, so the figure is for today's largest university.
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
  ["id-parse", () => benchIdParse()],
  ["releases", () => benchReleases()],
  // Our Worker against a plain Node + SQLite FTS5 server on the same data and URLs (issue 31's table).
  [
    "peer",
    async () => {
      if (!(await benchPeer())) process.exitCode = 1;
    },
  ],
  // 60 s of 32-connection load: only when named (npm run bench -- load), so a full run stays short.
  [
    "load",
    async () => {
      if (!(await benchLoad(load.seconds, load.connections))) process.exitCode = 1;
    },
  ],
  // The same load against `npm start` itself, as a user runs it: only when named.
  [
    "load-start",
    async () => {
      if (!(await benchLoadAgainstStart(load.seconds, load.connections))) process.exitCode = 1;
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
