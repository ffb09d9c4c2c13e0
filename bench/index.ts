// npm run bench: the figures users wait for, printed in one run. Each part is also runnable alone
// (npx tsx bench/<part>.ts), or by name: npm run bench -- build national. Parts that need the national
// files read EDU_UPSTREAM_DIR and say so when it is not set.
import path from "node:path";
import { benchAps } from "./aps.ts";
import { benchBuild } from "./build.ts";
import { benchFind } from "./find.ts";
import { benchIdParse } from "./id-parse.ts";
import { benchLoad } from "./load.ts";
import { benchNational } from "./national.ts";
import { benchWorker } from "./worker.ts";
import { defaultBuildOptions, runBuild } from "../build/index.ts";
import { ROOT } from "../support/test-dataset.ts";
import { removeAll, tempDir } from "../lib/files.ts";

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
  // 60 s of 32-connection load: only when named (npm run bench -- load), so a full run stays short.
  [
    "load",
    async () => {
      if (!(await benchLoad())) process.exitCode = 1;
    },
  ],
];
const ONLY_WHEN_NAMED = new Set(["load"]);

const only = process.argv.slice(2);
const unknown = only.filter((name) => !parts.some(([part]) => part === name));
if (unknown.length > 0) {
  console.error(`unknown bench part(s): ${unknown.join(", ")}; the parts are ${parts.map(([name]) => name).join(", ")}`);
  process.exit(2);
}
for (const [name, run] of parts) {
  if (only.length > 0 ? !only.includes(name) : ONLY_WHEN_NAMED.has(name)) continue;
  console.log(`\n##### ${name}`);
  await run();
}
