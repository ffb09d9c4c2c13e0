// Browsers send a preflight OPTIONS without the Authorization header, so it is answered before
// authentication, from CORS_ORIGINS alone; every other response gets the CORS headers too, so a browser can
// read error bodies. An answer to a publishable token (accepted only from one of its origins) names that
// origin rather than `*`, and varies on Origin.
import type { Principal } from "./authenticate.ts";
import { listSetting, type Env } from "./env.ts";

const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
const ALLOWED_HEADERS = "Authorization, Content-Type, If-None-Match";
const EXPOSED_HEADERS =
  "ETag, X-Data-Version, WWW-Authenticate, Allow, RateLimit, RateLimit-Policy, Retry-After, Deprecation, Sunset, Link, Content-Disposition";

function allowedOrigin(request: Request, env: Env): string | null {
  const origins = listSetting(env.CORS_ORIGINS ?? "*");
  if (origins.includes("*")) return "*";
  const origin = request.headers.get("origin");
  return origin !== null && origins.includes(origin) ? origin : null;
}

/** `principal`: the request's token, once it is accepted (a publishable one only from its own origins). */
export function corsHeaders(request: Request, env: Env, principal: Principal | null = null): Record<string, string> {
  const origin = principal?.kind.type === "pub" ? request.headers.get("origin") : allowedOrigin(request, env);
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
