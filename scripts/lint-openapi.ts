// npm run lint:openapi [-- FILE]: lints an OpenAPI document (default: dist/v1/openapi.json, which the build
// writes) with Redocly's "recommended" rules, the ones `@redocly/cli lint` applies by default (less one, below), through
// @redocly/openapi-core (the library the CLI runs; no telemetry, no network). Exits non-zero on any
// problem, warnings included: the document is generated, so a warning is a bug in the generator.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { ROOT } from "../lib/root.ts";

/** Redocly's recommended rules, all of them, except one that asks for a decision this project has not made. */
const RULES = {
  extends: ["recommended"],
  // The project has not chosen a licence for the API or its data yet; info.license would have to invent one.
  rules: { "info-license": "off" as const },
};

export async function lintOpenApi(source: string, file = "openapi.json"): Promise<NormalizedProblem[]> {
  const config = await createConfig(RULES);
  return lintFromString({ source, absoluteRef: path.resolve(file), config });
}

/** One line per problem: severity, rule, where, message. */
export function describeProblems(problems: NormalizedProblem[]): string[] {
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location.map((l) => l.pointer).join(" ")}: ${p.message}`);
}

async function main() {
  const file = path.resolve(process.argv[2] ?? path.join(ROOT, "dist", "v1", "openapi.json"));
  const problems = await lintOpenApi(await readFile(file, "utf8"), file);
  if (problems.length === 0) {
    console.log(`${path.relative(process.cwd(), file)}: no problems (Redocly recommended rules)`);
    return;
  }
  console.error(`${path.relative(process.cwd(), file)}: ${problems.length} problem(s)\n${describeProblems(problems).join("\n")}`);
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
