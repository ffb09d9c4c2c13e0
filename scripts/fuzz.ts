// npm run fuzz -- [--runs N] [--scale K] [--seed S]: every property test with more runs and a fresh seed: the
// workerd fuzz suite (test/worker/fuzz.spec.ts, N runs per property), and the other property tests of both
// suites with K times the runs npm test gives them, all drawn from the seed S (printed, to replay a failure).
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../lib/root.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { runCommand, UsageError } from "../lib/cli.ts";
import { propertyTestFiles } from "../support/property-tests.ts";

const USAGE = `usage: npm run fuzz -- [--runs N] [--scale K] [--seed S]

Runs every property test with more runs than npm test and cases it did not draw: the fuzz suite
(test/worker/fuzz.spec.ts) inside workerd against the test data set with N runs per property and a bound of 2 s on
each answer's time, and the other property tests (plain Node and workerd) with K times their runs.
  --runs N    runs per fuzz property (default 1000; npm test runs 40)
  --scale K   factor on the other properties' runs (default 10; npm test: 1)
  --seed S    the seed every property draws from (default: a fresh one, printed; npm test uses a fixed one)
  --help      this text`;

const POSITIVE = /^[1-9]\d{0,6}$/;

runCommand(USAGE, (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: "string", default: "1000" },
      scale: { type: "string", default: "10" },
      seed: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  for (const name of ["runs", "scale"] as const) {
    if (!POSITIVE.test(values[name])) throw new UsageError(`fuzz: --${name} must be a positive integer, not ${JSON.stringify(values[name])}`);
  }
  if (values.seed !== undefined && !(/^[1-9]\d{0,9}$/.test(values.seed) && Number(values.seed) < 2 ** 31)) {
    throw new UsageError(`fuzz: --seed must be a positive integer below 2^31, not ${JSON.stringify(values.seed)}`);
  }
  const seed = values.seed ?? String(randomInt(1, 2 ** 31));
  console.log(
    `fuzz: seed ${seed} (npm run fuzz -- --seed ${seed} draws the same cases), ${values.runs} runs per fuzz property, ${values.scale}x the other properties' runs`,
  );
  const env = {
    ...process.env,
    ...WRANGLER_OFFLINE_ENV,
    FUZZ_RUNS: values.runs,
    FUZZ_TIME_BOUND_MS: "2000",
    PROPERTY_SCALE: values.scale,
    PROPERTY_SEED: seed,
  };
  const vitest = (config: string, files: string[]) =>
    spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", config, ...files, "--testTimeout", "0"],
      {
        cwd: ROOT,
        stdio: "inherit",
        env,
      },
    ).status ?? 1;
  const worker = vitest("vitest.worker.config.ts", propertyTestFiles("test/worker", ".spec.ts"));
  const node = vitest("vitest.node.config.ts", propertyTestFiles("test/node", ".test.ts"));
  return worker === 0 && node === 0 ? 0 : 1;
});
