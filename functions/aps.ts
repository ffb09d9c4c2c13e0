// POST /v1/data/aps-calculator: the request is checked and scored by the pure APS module
// (domain/aps/request.ts) against the university's internal document that the build wrote. The slug is
// validated before any asset is named, so a body can never steer the Worker to another file.
import { handleApsRequest } from "../domain/aps/request.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { paths } from "../lib/layout.ts";
import type { Env } from "./env.ts";
import { errorResponse, jsonResponse } from "./respond.ts";
import { readInternalJson } from "./serve.ts";

export async function computeAps(body: unknown, env: Env): Promise<Response> {
  const result = await handleApsRequest(body, (slug) => readInternalJson<ApsUniversityDocument>(env, paths.apsUniversity(slug)));
  if (result.status === 422) return errorResponse(422, result.code, result.message, { details: result.details });
  return jsonResponse(JSON.stringify({ data: result.data }), 200, { "cache-control": "no-store" });
}
