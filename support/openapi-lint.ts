// Linting the OpenAPI document with Redocly's "recommended" rules, the ones `@redocly/cli lint` applies by
// default, info.license included, through @redocly/openapi-core (the library the CLI runs; no telemetry, no
// network). Used by `npm run lint:openapi` and the tests.
import path from "node:path";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";

/** Redocly's recommended rules, all of them (info.license included: docs/data-licence.md). */
const RULES = { extends: ["recommended"] };

export async function lintOpenApi(source: string, file = "openapi.json"): Promise<NormalizedProblem[]> {
  const config = await createConfig(RULES);
  return lintFromString({ source, absoluteRef: path.resolve(file), config });
}

/** One line per problem: severity, rule, where, message. */
export function describeProblems(problems: NormalizedProblem[]): string[] {
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location.map((l) => l.pointer).join(" ")}: ${p.message}`);
}
