// npm test: type-check, build the test data set from the committed sources (plus the national datasets
// when EDU_UPSTREAM_DIR is set), then run the plain-Node tests and the workerd tests.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { prepareTestDataset, ROOT } from "../test/support/dataset.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";

function run(title: string, args: string[]): boolean {
  console.log(`\n=== ${title}\n`);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...WRANGLER_OFFLINE_ENV } });
  return result.status === 0;
}

async function main() {
  const bin = (name: string, file: string) => path.join(ROOT, "node_modules", name, file);
  const typecheck = run("type-check (tsc)", [bin("typescript", "bin/tsc"), "--noEmit", "-p", "tsconfig.json"]);
  console.log("\n=== test data set (.test-dist/)\n");
  await prepareTestDataset({ force: true, log: (line) => console.log(line) });
  const node = run("plain-Node tests", [bin("vitest", "vitest.mjs"), "run", "--config", "vitest.node.config.ts"]);
  const worker = run("Worker tests in workerd", [bin("vitest", "vitest.mjs"), "run", "--config", "vitest.worker.config.ts"]);
  const failed = [!typecheck && "type-check", !node && "plain-Node tests", !worker && "Worker tests"].filter(Boolean);
  console.log(failed.length === 0 ? "\nAll checks passed." : `\nFailed: ${failed.join(", ")}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
