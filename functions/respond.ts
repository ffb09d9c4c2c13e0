// Response shaping shared by every step: the JSON error body of DESIGN.md, and JSON success bodies.

export type ErrorDetail = { path: string; message: string };

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function errorResponse(
  status: number,
  code: string,
  message: string,
  options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
): Response {
  const error = { status, code, message, ...(options.details ? { details: options.details } : {}) };
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store", ...options.headers },
  });
}

export function jsonResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": JSON_CONTENT_TYPE, ...headers } });
}

export const notFound = (what = "No such resource") => errorResponse(404, "not_found", what);
