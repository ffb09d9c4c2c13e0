// Browsers send a preflight OPTIONS without the Authorization header, so it is answered before
// authentication; every other response gets the CORS headers too, so a browser can read error bodies.
import { listSetting, type Env } from "./env.ts";

const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
const ALLOWED_HEADERS = "Authorization, Content-Type, If-None-Match";
const EXPOSED_HEADERS = "ETag, X-Data-Version, WWW-Authenticate, Allow";

export function allowedOrigin(request: Request, env: Env): string | null {
  const origins = listSetting(env.CORS_ORIGINS ?? "*");
  if (origins.includes("*")) return "*";
  const origin = request.headers.get("origin");
  return origin !== null && origins.includes(origin) ? origin : null;
}

export function corsHeaders(request: Request, env: Env): Record<string, string> {
  const origin = allowedOrigin(request, env);
  if (origin === null) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED_HEADERS,
    ...(origin === "*" ? {} : { vary: "Origin" }),
  };
}

export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS";
}

export function preflightResponse(request: Request, env: Env): Response {
  const headers: Record<string, string> = { ...corsHeaders(request, env), "cache-control": "no-store" };
  if (headers["access-control-allow-origin"]) {
    headers["access-control-allow-methods"] = ALLOWED_METHODS;
    headers["access-control-allow-headers"] = ALLOWED_HEADERS;
    headers["access-control-max-age"] = "86400";
  }
  return new Response(null, { status: 204, headers });
}
