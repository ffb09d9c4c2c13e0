// The edge Worker. Every request passes these steps in this order:
//   1. CORS preflight   answered before anything else (browsers send it without a token)
//   2. route            method + path -> endpoint (pure; unknown paths and methods are answered after step 3)
//   3. authenticate     bearer JWT: signature, expiry, environment, revocation
//   4. authorise        the endpoint's scope from the one scope table
//   5. serve / compute  precomputed files from dist/, or the ID parser / APS engine
//   6. respond          JSON body, ETag / 304, Cache-Control, X-Data-Version, CORS headers
// run_worker_first in wrangler.jsonc makes every request start here, so no file is served unchecked.
import { authenticate, forbidden } from "./authenticate.ts";
import { computeAps } from "./aps.ts";
import { computeIdParse, readJsonBody } from "./compute.ts";
import { corsHeaders, isPreflight, preflightResponse } from "./cors.ts";
import type { Env } from "./env.ts";
import { errorResponse, JSON_CONTENT_TYPE } from "./respond.ts";
import { matchRoute, type Route } from "./route.ts";
import { manifestOf, prospectusDocumentUrl, serveGet } from "./serve.ts";
import { grants } from "../domain/scopes.ts";

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    let response: Response;
    try {
      response = await handle(request, env);
    } catch (error) {
      console.error(error);
      response = errorResponse(500, "internal_error", "Something went wrong on our side; the error has been logged");
    }
    return withHeaders(response, corsHeaders(request, env));
  },
} satisfies ExportedHandler<Env>;

async function handle(request: Request, env: Env): Promise<Response> {
  if (isPreflight(request)) return preflightResponse(request, env);

  const url = new URL(request.url);
  const match = matchRoute(request.method, url.pathname);
  if (match.kind === "route" && match.route.access === "public") return servePublic(match.route, env);

  const authentication = await authenticate(request, env);
  if (!authentication.ok) return authentication.response;

  if (match.kind === "not-found") return errorResponse(404, "not_found", `No endpoint at ${url.pathname}`);
  if (match.kind === "method-not-allowed") {
    return errorResponse(405, "method_not_allowed", `${request.method} is not allowed here; use ${match.allow}`, {
      headers: { allow: match.allow },
    });
  }
  const { route } = match;
  if (route.access !== "public" && route.access !== null && !grants(authentication.principal.scopes, route.access)) {
    return forbidden(route.access);
  }

  switch (route.target.kind) {
    case "id-parse":
    case "aps": {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      return route.target.kind === "id-parse" ? computeIdParse(body.value, new Date()) : computeAps(body.value, env);
    }
    default:
      return serveDocument(request, url, route, env);
  }
}

async function serveDocument(request: Request, url: URL, route: Route, env: Env): Promise<Response> {
  const manifest = await manifestOf(env);
  const served = await serveGet(route.target, url, env, manifest);
  if (!served.ok) {
    if (served.status === 400) {
      return errorResponse(400, "invalid_pagination", "page and per_page must be positive integers, per_page at most 100", {
        details: served.problems.map((p) => ({ path: p.parameter, message: p.message })),
      });
    }
    return errorResponse(404, "not_found", served.message);
  }
  const etag = `"${await digest(served.body)}"`;
  const headers = {
    "content-type": JSON_CONTENT_TYPE,
    etag,
    "cache-control": `private, max-age=${Number(env.CACHE_MAX_AGE ?? 300)}`,
    "x-data-version": manifest.data_version,
    vary: "Authorization",
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : served.body, { status: 200, headers });
}

async function servePublic(route: Route, env: Env): Promise<Response> {
  if (route.target.kind !== "prospectus-document") return errorResponse(404, "not_found", "No such document");
  const location = await prospectusDocumentUrl(env, route.target.path);
  if (location === null) return errorResponse(404, "not_found", `No prospectus at ${route.target.path}`);
  // No mirrored copy yet: send the browser to the university's own document.
  return new Response(null, { status: 302, headers: { location, "cache-control": "public, max-age=3600" } });
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (Object.keys(headers).length === 0) return response;
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) {
    if (name === "vary" && copy.headers.has("vary")) copy.headers.append("vary", value);
    else copy.headers.set(name, value);
  }
  return copy;
}
