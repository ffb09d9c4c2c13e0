// Response shaping shared by every step: the JSON error body of ../shared/DESIGN.md, and JSON success bodies.
import { ApiError } from "./errors.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The one place an error becomes a response: {"error": {status, code, message, details?}}, never cached. */
function errorResponse(error: ApiError): Response {
  const { status, code, message } = error;
  const { details, headers } = error.options;
  const body = { error: { status, code, message, ...(details ? { details } : {}) } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store", ...headers },
  });
}

/** Anything thrown: an ApiError answers as itself, anything else is a bug, logged and answered as a 500. */
export function responseForThrown(thrown: unknown): Response {
  if (thrown instanceof ApiError) return errorResponse(thrown);
  console.error(thrown);
  return errorResponse(new ApiError("internal_error", "Something went wrong on our side; the error has been logged"));
}

export function jsonResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": JSON_CONTENT_TYPE, ...headers } });
}
