// The edge Worker. Every request passes these steps in this order:
//   1. CORS preflight   answered before anything else (browsers send it without a token)
//   2. route            method + path -> endpoint (pure; unknown paths and methods are answered after step 4)
//   3. authenticate     bearer JWT: signature, issue time, lifetime, expiry, environment, revocation; a
//                       publishable token only from one of its origins
//   4. rate limit       one count in Cloudflare's rate limiting binding: per token (jti), or per client
//                       address for a request without a valid token (and for the reference page, once
//                       per load: not its scripts, style sheet and OpenAPI document)
//   5. authorise        the endpoint's scope from the one scope table
//   6. serve / compute  precomputed files from dist/, or the ID parser / APS engine
//   7. respond          JSON body, ETag / 304, Cache-Control, X-Data-Version, CORS and RateLimit headers (and a
//                       retiring operation's Deprecation, Sunset and Link)
// Every step throws an ApiError (functions/errors.ts) to answer with an error; it becomes the JSON error
// body in one place (respond.ts). run_worker_first in wrangler.jsonc makes every request start here, so
// no file is served unchecked.
import { deprecationHeaders } from "../domain/deprecation.ts";
import { authenticate, authorise, checkOrigin, type Principal } from "./authenticate.ts";
import { corsHeaders, isPreflight, preflightResponse } from "./cors.ts";
import { dispatch, manifestReader } from "./dispatch.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { responseForThrown } from "./respond.ts";
import { settingsOf } from "./settings.ts";
import { clientAddress, countRequest, rateLimited, rateLimitHeaders, type RateLimitClass, type RateLimitOutcome } from "./rate-limit.ts";
import { matchRoute, type Route, type RouteMatch } from "./route.ts";

/** What the steps learn about a request that every response to it reports: its accepted token and its counts. */
type Gate = { principal: Principal | null; rateLimits: RateLimitOutcome[] };

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const gate: Gate = { principal: null, rateLimits: [] };
    const response = await handle(request, env, gate).catch(responseForThrown);
    return withHeaders(response, {
      // Every answer is what its Content-Type says and nothing else: no browser may sniff a JSON body into a page.
      "x-content-type-options": "nosniff",
      ...corsHeaders(request, env, gate.principal),
      ...rateLimitHeaders(gate.rateLimits),
    });
  },
} satisfies ExportedHandler<Env>;

async function handle(request: Request, env: Env, gate: Gate): Promise<Response> {
  if (isPreflight(request)) return preflightResponse(request, env);
  settingsOf(env); // a setting that does not parse answers every request 500 misconfigured
  const url = new URL(request.url);
  const match = matchRoute(request.method, url.pathname);
  if (match.kind === "route" && match.route.access === "public") {
    // The reference page's own files are not counted: one page load is one request (lib/public-documents.ts).
    const target = match.route.target;
    if (target.kind !== "public-document" || target.document.counted) await count(gate, env, "anonymous", clientAddress(request));
    return dispatch(target, { request, url, env, principal: null, manifest: manifestReader(env, null) });
  }

  // A data route's manifest read starts now and runs while the token is checked and counted (functions/dispatch.ts).
  const manifest = manifestReader(env, match.kind === "route" ? match.route.target : null);
  const principal = await admit(request, env, gate);
  const route = routeOf(match, request, url);
  if (route.access !== "public") authorise(principal, route.access);
  const response = await dispatch(route.target, { request, url, env, principal, manifest });
  // An operation being retired answers as before, saying since when and until when (README "Deprecation").
  return route.deprecation ? withHeaders(response, deprecationHeaders(route.deprecation)) : response;
}

/**
 * The request's token, verified (a publishable one only from its own origins) and counted against its jti.
 * A request without a valid token is counted against its client address before it is refused, so guessing
 * and replaying tokens from elsewhere is bounded too.
 */
async function admit(request: Request, env: Env, gate: Gate): Promise<Principal> {
  let principal: Principal;
  try {
    principal = await authenticate(request, env);
    checkOrigin(principal, request);
  } catch (error) {
    if (error instanceof ApiError) await count(gate, env, "anonymous", clientAddress(request));
    throw error;
  }
  gate.principal = principal;
  if (principal.kind.type === "pub") {
    // A publishable token is public: each visitor (client address) has a quota of its own with it, and only
    // what that quota allows is counted against the token's ceiling, so one address cannot use up the site's.
    await count(gate, env, "visitor", `${principal.jti} ${clientAddress(request)}`);
    await count(gate, env, "publishable", principal.jti);
  } else {
    await count(gate, env, "secret", principal.jti);
  }
  return principal;
}

/** One count in the rate limit of `rateClass`; over the limit, a 429. */
async function count(gate: Gate, env: Env, rateClass: RateLimitClass, key: string): Promise<void> {
  const outcome = await countRequest(env, rateClass, key);
  // A request refused without a valid token reports the anonymous count alone.
  gate.rateLimits = rateClass === "anonymous" ? [outcome] : [...gate.rateLimits, outcome];
  if (!outcome.allowed) throw rateLimited(outcome);
}

/** The matched route; an unknown path or method is answered only now, after authentication. */
function routeOf(match: RouteMatch, request: Request, url: URL): Route {
  if (match.kind === "not-found") throw new ApiError("not_found", `No endpoint at ${url.pathname}`);
  if (match.kind === "method-not-allowed") {
    throw new ApiError("method_not_allowed", `${request.method} is not allowed here; use ${match.allow}`, { headers: { allow: match.allow } });
  }
  return match.route;
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
