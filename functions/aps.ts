// POST /v1/data/aps-calculator: the request is checked and scored by the pure APS module
// (domain/aps/request.ts) against the university's internal document that the build wrote.
import type { Env } from "./env.ts";
import { errorResponse } from "./respond.ts";

export async function computeAps(_body: unknown, _env: Env): Promise<Response> {
  return errorResponse(503, "not_available", "The APS calculator is being wired in");
}
