// npm test: type-check, build the test data set from the committed sources, then run the plain-Node tests
// and the workerd tests; says how long each step took.
import { spawn } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { runCommand } from "../lib/cli.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { prepareTestDataset, ROOT } from "../support/test-dataset.ts";
import { filesNotStarted, poolFailedToStart } from "../support/vitest-output.ts";

const USAGE = `usage: npm test

Type-checks (tsc: the project, then the Worker on its own), builds the test data set (.test-dist/) from the committed sources, then runs the
plain-Node suite (vitest.node.config.ts) and the workerd suite (vitest.worker.config.ts), each even if an
earlier one failed, and prints the time of each. Exit code 1 if any failed. When workerd's test pool could not
start a test file and nothing else went wrong, that file never ran: it is run then, once, and npm test says so
(README, Tests).
  --help   this text`;

const bin = (name: string, file: string) => path.join(ROOT, "node_modules", name, file);

/** Runs node with args, showing its output as it comes and keeping it. */
function runShowing(args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, ...WRANGLER_OFFLINE_ENV } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      output += chunk.toString();
    });
    child.on("error", (error) => resolve({ ok: false, output: `${output}\n${error.message}` }));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}

runCommand(USAGE, async (argv) => {
  const { values } = parseArgs({ args: argv, options: { help: { type: "boolean", default: false } } });
  if (values.help) return console.log(USAGE);
  const timings: [string, number, boolean][] = [];
  const step = async (title: string, work: () => boolean | Promise<boolean>) => {
    console.log(`\n=== ${title}\n`);
    const started = performance.now();
    const ok = await work();
    timings.push([title, (performance.now() - started) / 1000, ok]);
  };
  // The whole project, then the Worker on its own against workerd's types (npm run typecheck).
  await step("type-check (tsc)", async () => {
    for (const project of ["tsconfig.json", "functions/tsconfig.json"]) {
      if (!(await runShowing([bin("typescript", "bin/tsc"), "--noEmit", "-p", project])).ok) return false;
    }
    return true;
  });
  await step("test data set (.test-dist/)", async () => {
    await prepareTestDataset({ force: true, log: (line) => console.log(line) });
    return true;
  });
  await step("plain-Node tests", async () => (await runShowing([bin("vitest", "vitest.mjs"), "run", "--config", "vitest.node.config.ts"])).ok);
  await step("Worker tests in workerd", async () => {
    const args = [bin("vitest", "vitest.mjs"), "run", "--config", "vitest.worker.config.ts"];
    const first = await runShowing(args);
    if (first.ok || !poolFailedToStart(first.output)) return first.ok;
    const files = filesNotStarted(first.output);
    console.log(`\nworkerd's test pool could not start ${files.join(", ")}, and nothing else failed: running what never ran\n`);
    return (await runShowing([...args, ...files])).ok;
  });
  console.log("\n=== times\n");
  for (const [title, seconds, ok] of timings) console.log(`  ${title.padEnd(30)} ${seconds.toFixed(1).padStart(6)} s  ${ok ? "ok" : "FAILED"}`);
  console.log(
    `  ${"total".padEnd(30)} ${timings
      .reduce((n, [, s]) => n + s, 0)
      .toFixed(1)
      .padStart(6)} s`,
  );
  const failed = timings.filter(([, , ok]) => !ok).map(([title]) => title);
  console.log(failed.length === 0 ? "\nAll checks passed." : `\nFailed: ${failed.join(", ")}`);
  return failed.length === 0 ? 0 : 1;
});
