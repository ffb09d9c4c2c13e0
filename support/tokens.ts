// Minting tokens: what `npm run token` prints, and what the tests and benches sign their requests with.
// The claims are checked against the token rules of domain/tokens.ts (and the scope table) before signing,
// so nothing is minted that the Worker would refuse.
import { importJWK, SignJWT } from "jose";
import { isScope } from "../domain/scopes.ts";
import { DEFAULT_MAX_LIFETIME_DAYS, lifetimeProblem, tokenKindOf } from "../domain/tokens.ts";
import type { SigningKey } from "./signing-keys.ts";

export type TokenRequest = {
  scopes: string[];
  env: "test" | "live";
  expiresInSeconds: number;
  sub: string;
  /** A publishable token for browsers on these origins (README: Tokens); without it, a secret token. */
  origins?: string[];
};

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "30d", "12h", "90m", "45s" in seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`--expires-in takes a number and a unit (s, m, h, d), e.g. 30d; got '${text}'`);
  return Number(m[1]) * (UNIT_SECONDS[m[2]] ?? 1);
}

/** The claims a request asks for beyond sub, iat, exp and jti. */
function claimsOf(request: TokenRequest): Record<string, unknown> {
  const scope = request.scopes.join(" ");
  return request.origins === undefined
    ? { scope, env: request.env, token_type: "secret" }
    : { scope, env: request.env, token_type: "pub", origins: request.origins };
}

/**
 * Everything wrong with a request (unknown scopes, a publishable token's scopes or origins, a lifetime longer
 * than the deployment's TOKEN_MAX_LIFETIME_DAYS, `maxDays`); [] when none.
 */
export function tokenRequestProblems(request: TokenRequest, maxDays = DEFAULT_MAX_LIFETIME_DAYS): string[] {
  const unknown = request.scopes.filter((s) => !isScope(s));
  const problems = unknown.length > 0 ? [`unknown scope(s) ${unknown.join(", ")}`] : [];
  const lifetime = lifetimeProblem(request.expiresInSeconds, maxDays);
  if (lifetime) problems.push(lifetime);
  const kind = tokenKindOf(claimsOf(request));
  return "problems" in kind ? [...problems, ...kind.problems] : problems;
}

export async function signToken(
  request: TokenRequest,
  key: SigningKey,
  now = Math.floor(Date.now() / 1000),
  maxDays = DEFAULT_MAX_LIFETIME_DAYS,
): Promise<string> {
  const problems = tokenRequestProblems(request, maxDays);
  if (problems.length > 0) throw new Error(`refusing to mint this token: ${problems.join("; ")}`);
  const privateKey = await importJWK(key, "EdDSA");
  return new SignJWT(claimsOf(request))
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: key.kid })
    .setSubject(request.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + request.expiresInSeconds)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
}
