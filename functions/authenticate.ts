// Authentication: a bearer JWT signed with one of the keys in TOKEN_JWKS (EdDSA), for this deployment's
// environment, not expired, not revoked. jose does the cryptography and the standard claim checks.
//
// Verifying a signature costs far more than anything else on the request path, and clients reuse one
// token for many requests, so each distinct token's verified claims are remembered until it expires
// (the revocation list is still checked on every request).
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { parseScopeClaim } from "../domain/scopes.ts";
import { listSetting, type Env } from "./env.ts";
import { errorResponse } from "./respond.ts";

export type Principal = { sub: string; jti: string; scopes: Set<string>; expiresAt: number };

export type Authentication = { ok: true; principal: Principal } | { ok: false; response: Response };

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

function unauthorized(code: string, message: string): Authentication {
  return {
    ok: false,
    response: errorResponse(401, code, message, {
      headers: { "www-authenticate": `${REALM}, error="invalid_token", error_description="${message.replace(/"/g, "'")}"` },
    }),
  };
}

export async function authenticate(request: Request, env: Env, now = Date.now()): Promise<Authentication> {
  const header = request.headers.get("authorization");
  if (header === null) return unauthorized("missing_token", "This endpoint needs an Authorization: Bearer <token> header");
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header.trim());
  if (!match?.[1]) return unauthorized("invalid_token", "The Authorization header must be 'Bearer ' followed by a JWT");
  const token = match[1];

  let principal = verified.get(token);
  if (principal && principal.expiresAt <= now) {
    verified.delete(token);
    principal = undefined;
  }
  if (!principal) {
    if (!env.TOKEN_JWKS) return unauthorized("invalid_token", "This deployment has no token keys configured (TOKEN_JWKS)");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet(env), {
        algorithms: ["EdDSA"],
        requiredClaims: ["sub", "jti", "iat", "exp", "scope", "env"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(now),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return unauthorized("token_expired", "The token has expired");
      if (error instanceof joseErrors.JWTClaimValidationFailed) return unauthorized("invalid_token", `The token's claims are not valid: ${error.message}`);
      return unauthorized("invalid_token", "The token's signature could not be verified with this deployment's keys");
    }
    if (payload.env !== env.TOKEN_ENV) {
      return unauthorized("wrong_environment", `This deployment accepts '${env.TOKEN_ENV}' tokens only; this one is for '${String(payload.env)}'`);
    }
    principal = {
      sub: String(payload.sub),
      jti: String(payload.jti),
      scopes: parseScopeClaim(payload.scope),
      expiresAt: (payload.exp ?? 0) * 1000,
    };
    if (verified.size >= CACHE_LIMIT) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, principal);
  }
  if (listSetting(env.REVOKED_JTIS).includes(principal.jti)) {
    return unauthorized("token_revoked", "This token has been revoked");
  }
  return { ok: true, principal };
}

export function forbidden(scope: string): Response {
  return errorResponse(403, "insufficient_scope", `This endpoint needs a token with the scope '${scope}'`, {
    headers: { "www-authenticate": `${REALM}, error="insufficient_scope", scope="${scope}"` },
  });
}
