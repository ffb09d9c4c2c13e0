// npm run client:generate [-- --check]: the typed client's generated files (support/client-generator.ts).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand } from "../lib/cli.ts";
import { ROOT } from "../lib/root.ts";
import { GENERATED_DIR, generatedClientFiles } from "../support/client-generator.ts";

const USAGE = `usage: npm run client:generate [-- --check]

Writes client/src/generated/ (types by openapi-typescript, and the operation table) from the OpenAPI
document the build generates.
  --check  write nothing; exit 1 if the generated files are out of date
  --help   this text`;

runCommand(USAGE, async (argv) => {
  const { values } = parseArgs({ args: argv, options: { check: { type: "boolean", default: false }, help: { type: "boolean", default: false } } });
  if (values.help) return console.log(USAGE);
  const files = await generatedClientFiles();
  const stale: string[] = [];
  await mkdir(GENERATED_DIR, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(GENERATED_DIR, name);
    const current = await readFile(file, "utf8").catch(() => null);
    if (current === content) continue;
    stale.push(path.relative(ROOT, file));
    if (!values.check) await writeFile(file, content);
  }
  if (values.check && stale.length > 0) {
    console.error(`Out of date (run npm run client:generate): ${stale.join(", ")}`);
    return 1;
  }
  console.log(stale.length === 0 ? "client/src/generated/ is up to date" : `wrote ${stale.join(", ")}`);
  return 0;
});
