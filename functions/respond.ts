// Response shaping shared by every step: the JSON error body of ../shared/DESIGN.md, and JSON success bodies.
import { ApiError } from "./errors.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** An error lists at most this many problems in `details`; its message counts the rest (README: Errors). */
const MAX_ERROR_DETAILS = 20;

/** The one place an error becomes a response: {"error": {status, code, message, details?}}, never cached. */
function errorResponse(error: ApiError): Response {
  const { status, code } = error;
  const { details, headers } = error.options;
  // A body of thousands of bad fields must not answer with a report sixty times its size.
  const omitted = Math.max(0, (details?.length ?? 0) - MAX_ERROR_DETAILS);
  const message =
    omitted > 0
      ? `${error.message} (details lists the first ${MAX_ERROR_DETAILS} of ${details?.length} problems; ${omitted} more not shown)`
      : error.message;
  const body = { error: { status, code, message, ...(details ? { details: details.slice(0, MAX_ERROR_DETAILS) } : {}) } };
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
