// npm run bench: the figures users wait for, printed in one run. Each part is also runnable alone
// (npx tsx bench/<part>.ts). Parts that need the national files read EDU_UPSTREAM_DIR and say so when
// it is not set.
import { benchBuild } from "./build.ts";
import { benchIdParse } from "./id-parse.ts";
import { benchWorker } from "./worker.ts";

const parts: [string, () => Promise<unknown>][] = [
  ["build", benchBuild],
  ["worker", () => benchWorker()],
  ["id-parse", () => benchIdParse()],
];

const only = process.argv.slice(2);
for (const [name, run] of parts) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n##### ${name}`);
  await run();
}
