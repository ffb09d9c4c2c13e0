// Authentication: a bearer JWT signed with one of the keys in TOKEN_JWKS (EdDSA), for this deployment's
// environment, not expired, not revoked. jose does the cryptography and the standard claim checks.
//
// Verifying a signature costs far more than anything else on the request path, and clients reuse one
// token for many requests, so each distinct token's verified claims are remembered until it expires
// (the revocation list is still checked on every request).
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { grants, parseScopeClaim, type RequiredScope } from "../domain/scopes.ts";
import { claimShapeProblems, tokenKindOf, type TokenKind } from "../domain/tokens.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { settingsOf } from "./settings.ts";

/** A verified token: `kind` says secret (servers) or publishable (browsers on its origins), domain/tokens.ts. */
export type Principal = { sub: string; jti: string; scopes: Set<string>; expiresAt: number; kind: TokenKind };

const REALM = 'Bearer realm="sa-edu-data-api"';
const CACHE_LIMIT = 1_000;
/** Allowed difference between our clock and the token issuer's. */
const CLOCK_TOLERANCE_SECONDS = 30;

let keySetFor: { jwks: string; keySet: ReturnType<typeof createLocalJWKSet> } | null = null;
const verified = new Map<string, Principal>();

function keySet(env: Env) {
  const jwks = env.TOKEN_JWKS ?? "";
  if (keySetFor?.jwks !== jwks) {
    keySetFor = { jwks, keySet: createLocalJWKSet(JSON.parse(jwks)) };
    verified.clear();
  }
  return keySetFor.keySet;
}

type Unauthorized = "missing_token" | "invalid_token" | "token_expired" | "token_revoked" | "wrong_environment";

/** Text fit for a quoted header parameter: printable ASCII only, no quote or backslash. Claims are checked
 * before any message names them (claimShapeProblems); this is the last line, so no header can ever throw. */
function headerText(text: string): string {
  return text
    .replace(/[^\x20-\x7e]/g, "?")
    .replace(/["\\]/g, "'")
    .slice(0, 300);
}

/** RFC 6750 section 3.1: the challenge carries an error code only when the request sent credentials. */
function challenge(error: "invalid_token" | "invalid_request" | null, message: string): Record<string, string> {
  if (error === null) return { "www-authenticate": REALM };
  return { "www-authenticate": `${REALM}, error="${error}", error_description="${headerText(message)}"` };
}

function unauthorized(code: Unauthorized, message: string): ApiError {
  return new ApiError(code, message, { headers: challenge(code === "missing_token" ? null : "invalid_token", message) });
}

/** A bearer credentials header (RFC 6750 section 2.1): the scheme, in any case (RFC 9110 section 11.1), and a token68. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The request's bearer token: none is a 401 without an error code, a malformed header a 400 invalid_request. */
function bearerToken(request: Request): string {
  const header = request.headers.get("authorization");
  if (header === null) throw unauthorized("missing_token", "This endpoint needs an Authorization: Bearer <token> header");
  const token = BEARER.exec(header.trim())?.[1];
  if (token === undefined) {
    const message = "The Authorization header must be 'Bearer ' followed by a token";
    throw new ApiError("invalid_request", message, { headers: challenge("invalid_request", message) });
  }
  if (!JWT.test(token)) throw unauthorized("invalid_token", "The bearer token must be a JWT (three base64url parts joined by dots)");
  return token;
}

/** Checks jose leaves to us: a token may not be issued in the future, nor live longer than the maximum. */
function checkIssuedAt(payload: JWTPayload, env: Env, nowSeconds: number): void {
  const iat = payload.iat ?? 0;
  if (iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) {
    throw unauthorized("invalid_token", `The token was issued in the future (iat ${iat} is ${iat - nowSeconds} s ahead of this server's clock)`);
  }
  const lifetime = (payload.exp ?? 0) - iat;
  const maxLifetime = settingsOf(env).tokenMaxLifetimeSeconds;
  if (lifetime > maxLifetime) {
    throw unauthorized(
      "invalid_token",
      `The token is valid for ${Math.round(lifetime / 86_400)} days (exp - iat); this deployment accepts at most ${maxLifetime / 86_400} days`,
    );
  }
}

/** The verified principal of the request's bearer token; throws a 401 (400 for a malformed header) ApiError otherwise. */
export async function authenticate(request: Request, env: Env, now = Date.now()): Promise<Principal> {
  const token = bearerToken(request);

  let principal = verified.get(token);
  if (principal && principal.expiresAt <= now) {
    verified.delete(token);
    principal = undefined;
  }
  if (!principal) {
    if (!env.TOKEN_JWKS) throw unauthorized("invalid_token", "This deployment has no token keys configured (TOKEN_JWKS)");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet(env), {
        algorithms: ["EdDSA"],
        requiredClaims: ["sub", "jti", "iat", "exp", "scope", "env"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(now),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized("token_expired", "The token has expired");
      if (error instanceof joseErrors.JWTClaimValidationFailed)
        throw unauthorized("invalid_token", `The token's claims are not valid: ${error.message}`);
      throw unauthorized("invalid_token", "The token's signature could not be verified with this deployment's keys");
    }
    const shape = claimShapeProblems(payload);
    if (shape.length > 0) throw unauthorized("invalid_token", `The token's claims are not valid: ${shape.join("; ")}`);
    checkIssuedAt(payload, env, Math.floor(now / 1000));
    if (payload.env !== env.TOKEN_ENV) {
      throw unauthorized("wrong_environment", `This deployment accepts '${env.TOKEN_ENV}' tokens only; this one is for '${String(payload.env)}'`);
    }
    const kind = tokenKindOf(payload);
    if ("problems" in kind) throw unauthorized("invalid_token", `The token's claims are not valid: ${kind.problems.join("; ")}`);
    principal = {
      sub: String(payload.sub),
      jti: String(payload.jti),
      scopes: parseScopeClaim(payload.scope),
      expiresAt: (payload.exp ?? 0) * 1000,
      kind: kind.kind,
    };
    if (verified.size >= CACHE_LIMIT) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, principal);
  }
  if (settingsOf(env).revokedJtis.has(principal.jti)) {
    throw unauthorized("token_revoked", "This token has been revoked");
  }
  return principal;
}

/**
 * A publishable token is accepted only from a page on one of its origins: the request's Origin header (which
 * a browser always sends on a cross-origin request, and a page cannot change) must name one. Anything else,
 * no Origin included, is a 403. A secret token may come from anywhere.
 */
export function checkOrigin(principal: Principal, request: Request): void {
  if (principal.kind.type !== "pub") return;
  const origin = request.headers.get("origin");
  if (origin !== null && principal.kind.origins.includes(origin)) return;
  const sites = principal.kind.origins.join(", ");
  // A message the page's developer can act on; the origins are the token's own, already in the page.
  throw new ApiError(
    "origin_not_allowed",
    origin === null
      ? `This publishable token works only in pages on its sites (${sites}), and the request has no Origin header; a server uses a secret token`
      : `This publishable token is not for pages on ${origin}; it works only on ${sites}`,
  );
}

/** Throws a 403 unless the principal's scopes include the one the endpoint needs. */
export function authorise(principal: Principal, required: RequiredScope): void {
  if (grants(principal.scopes, required)) return;
  throw new ApiError("insufficient_scope", `This endpoint needs a token with the scope '${required}'`, {
    headers: { "www-authenticate": `${REALM}, error="insufficient_scope", scope="${required}"` },
  });
}
