// npm test: the type-check beside the test data set's build from the committed sources and then the plain-Node
// and workerd suites, those two side by side; says how long each step took. Side by side because each suite leaves
// much of the machine idle (the Node suite waits on browsers, servers and child processes; the workerd suite on
// its pool starting isolates): one after the other they took 180 s on the two-core machine, together about 150.
import { spawn } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { runCommand } from "../lib/cli.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { DATASET_PREPARED_ENV, prepareTestDataset, ROOT } from "../support/test-dataset.ts";
import { filesNotStarted, poolFailedToStart } from "../support/vitest-output.ts";

const USAGE = `usage: npm test

Type-checks (tsc: the project, then the Worker on its own) while it builds the test data set (.test-dist/)
from the committed sources (when it is missing or older than a file it is built from), and then runs the
plain-Node suite (vitest.node.config.ts) and the workerd suite (vitest.worker.config.ts) side by side, their
lines marked [tsc], [data], [node] and [workerd]; every step runs even if another failed. Prints the time of each. Exit code 1 if any failed. When workerd's test pool could not
start a test file and nothing else went wrong, that file never ran: it is run then, once, and npm test says so
(README, Tests).
  --help   this text`;

const bin = (name: string, file: string) => path.join(ROOT, "node_modules", name, file);

/** Runs node with args, showing its output as it comes (each line after `label`, when given) and keeping it. */
function runShowing(args: string[], label = ""): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...WRANGLER_OFFLINE_ENV, [DATASET_PREPARED_ENV]: "1" },
    });
    let output = "";
    const show = (stream: NodeJS.WriteStream) => {
      let partial = "";
      return (chunk: Buffer) => {
        output += chunk.toString();
        if (label === "") return void stream.write(chunk);
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) stream.write(`${label} ${line}\n`);
      };
    };
    child.stdout.on("data", show(process.stdout));
    child.stderr.on("data", show(process.stderr));
    child.on("error", (error) => resolve({ ok: false, output: `${output}\n${error.message}` }));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}

runCommand(USAGE, async (argv) => {
  const { values } = parseArgs({ args: argv, options: { help: { type: "boolean", default: false } } });
  if (values.help) return console.log(USAGE);
  const timings: [string, number, boolean][] = [];
  const step = async (title: string, work: () => boolean | Promise<boolean>) => {
    const started = performance.now();
    const ok = await work();
    timings.push([title, (performance.now() - started) / 1000, ok]);
  };
  const started = performance.now();
  console.log(
    "\n=== type-check (tsc) beside the test data set (.test-dist/), then the plain-Node tests [node] and the Worker tests in workerd [workerd] side by side\n",
  );
  // The whole project, then the Worker on its own against workerd's types (npm run typecheck): it needs no data set,
  // so it runs while the data set is built and the suites start.
  const typeCheck = step("type-check (tsc)", async () => {
    for (const project of ["tsconfig.json", "functions/tsconfig.json"]) {
      if (!(await runShowing([bin("typescript", "bin/tsc"), "--noEmit", "-p", project], "[tsc]")).ok) return false;
    }
    return true;
  });
  const suites = (async () => {
    await step("test data set (.test-dist/)", async () => {
      // Built when missing or older than a file it is built from, as each suite alone does; not always: a second
      // npm test beside this one would replace .test-dist/ under this one's workerd, which serves it for the whole
      // suite (its assets then answer 500). build.test.ts builds the committed sources anyway and compares the
      // result with .test-dist/ byte for byte, so a data set kept by mistake fails the run.
      await prepareTestDataset({ log: (line) => console.log(`[data] ${line}`) });
      return true;
    });
    await Promise.all([
      step(
        "plain-Node tests",
        async () => (await runShowing([bin("vitest", "vitest.mjs"), "run", "--config", "vitest.node.config.ts"], "[node]")).ok,
      ),
      step("Worker tests in workerd", async () => {
        const args = [bin("vitest", "vitest.mjs"), "run", "--config", "vitest.worker.config.ts"];
        const first = await runShowing(args, "[workerd]");
        if (first.ok || !poolFailedToStart(first.output)) return first.ok;
        const files = filesNotStarted(first.output);
        console.log(`\nworkerd's test pool could not start ${files.join(", ")}, and nothing else failed: running what never ran\n`);
        return (await runShowing([...args, ...files], "[workerd]")).ok;
      }),
    ]);
  })();
  await Promise.all([typeCheck, suites]);
  const wall = (performance.now() - started) / 1000;
  console.log("\n=== times\n");
  for (const [title, seconds, ok] of timings) console.log(`  ${title.padEnd(30)} ${seconds.toFixed(1).padStart(6)} s  ${ok ? "ok" : "FAILED"}`);
  console.log(`  ${"total (steps side by side)".padEnd(30)} ${wall.toFixed(1).padStart(6)} s`);
  const failed = timings.filter(([, , ok]) => !ok).map(([title]) => title);
  console.log(failed.length === 0 ? "\nAll checks passed." : `\nFailed: ${failed.join(", ")}`);
  return failed.length === 0 ? 0 : 1;
});
