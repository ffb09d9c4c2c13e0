// npm run lint:openapi [-- FILE]: lints an OpenAPI document (default: dist/v1/openapi.json, which the build
// writes). Exits non-zero on any problem, warnings included: the document is generated, so a warning is a
// bug in the generator.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand, UsageError } from "../lib/cli.ts";
import { ROOT } from "../lib/root.ts";

const USAGE = `usage: npm run lint:openapi -- [FILE]

Lints an OpenAPI document with Redocly's recommended rules (info-license off).
  FILE     the document (default dist/v1/openapi.json, written by npm run build)
  --help   this text`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: "boolean", default: false } } });
  if (values.help) return console.log(USAGE);
  if (positionals.length > 1) throw new UsageError("name at most one file");
  const file = path.resolve(positionals[0] ?? path.join(ROOT, "dist", "v1", "openapi.json"));
  // Redocly is imported once the arguments are read: --help and a mistyped option answer without it.
  const { describeProblems, lintOpenApi } = await import("../support/openapi-lint.ts");
  const problems = await lintOpenApi(await readFile(file, "utf8"), file);
  if (problems.length === 0) {
    console.log(`${path.relative(process.cwd(), file)}: no problems (Redocly recommended rules)`);
    return 0;
  }
  console.error(`${path.relative(process.cwd(), file)}: ${problems.length} problem(s)\n${describeProblems(problems).join("\n")}`);
  return 1;
});
