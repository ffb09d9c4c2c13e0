// Linting the OpenAPI document with Redocly's "recommended" rules, the ones `@redocly/cli lint` applies by
// default (less one, below), through @redocly/openapi-core (the library the CLI runs; no telemetry, no
// network). Used by `npm run lint:openapi` and the tests.
import path from "node:path";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";

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
