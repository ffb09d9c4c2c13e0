// npm run fuzz -- [--runs N]: the property-based fuzz suite (test/worker/fuzz.spec.ts) against the real
// Worker in workerd, with N runs per property (npm test runs 40).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../lib/root.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { runCommand, UsageError } from "../lib/cli.ts";

const USAGE = `usage: npm run fuzz -- [--runs N]

Runs the fuzz suite (test/worker/fuzz.spec.ts) inside workerd against the test data set.
  --runs N   runs per property (default 1000; npm test runs 40)
  --help     this text`;

runCommand(USAGE, (argv) => {
  const { values } = parseArgs({ args: argv, options: { runs: { type: "string", default: "1000" }, help: { type: "boolean", default: false } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!/^[1-9]\d{0,6}$/.test(values.runs)) throw new UsageError(`fuzz: --runs must be a positive integer, not ${JSON.stringify(values.runs)}`);
  const result = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--config",
      "vitest.worker.config.ts",
      "test/worker/fuzz.spec.ts",
      "--testTimeout",
      "0",
    ],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...WRANGLER_OFFLINE_ENV, FUZZ_RUNS: values.runs } },
  );
  return result.status ?? 1;
});
