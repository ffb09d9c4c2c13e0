// The two kinds of token, told apart by their claims (README: Tokens):
//   secret       for servers: any scope, usable from anywhere. `token_type: "secret"`, or no token_type at all
//                (tokens minted before publishable tokens existed).
//   publishable  for browsers, where anyone can read it in the page: `token_type: "pub"` and `origins`, the
//                sites whose pages may use it; only the scopes in PUBLISHABLE_SCOPES.
// Pure: the token CLI refuses to mint what these rules refuse, and the Worker refuses (401) a signed token
// that breaks them, so a hand-made token cannot widen what a publishable token can do.
import { isPublishableScope, parseScopeClaim } from "./scopes.ts";

export type TokenKind = { type: "secret" } | { type: "pub"; origins: string[] };

/** The longest a token may be valid (exp - iat), in days, where TOKEN_MAX_LIFETIME_DAYS does not say otherwise. */
export const DEFAULT_MAX_LIFETIME_DAYS = 400;

/** The longest lifetime in days a deployment accepts, from its TOKEN_MAX_LIFETIME_DAYS setting (a positive number). */
export function maxLifetimeDays(setting: unknown): number {
  const days = Number(setting ?? DEFAULT_MAX_LIFETIME_DAYS);
  return Number.isFinite(days) && days > 0 ? days : DEFAULT_MAX_LIFETIME_DAYS;
}

/** Why a token valid for `seconds` (exp - iat) is refused where at most `maxDays` days are accepted, or null. */
export function lifetimeProblem(seconds: number, maxDays: number): string | null {
  if (!(seconds > 0)) return "a token must be valid for some time: give --expires-in more than 0";
  if (seconds > maxDays * 86_400)
    return `a token may be valid for at most ${maxDays} days (TOKEN_MAX_LIFETIME_DAYS), not ${Math.round((seconds / 86_400) * 100) / 100} days: the Worker would refuse it (401)`;
  return null;
}

/** At most this many origins in one publishable token (one per site: a partner with more mints more tokens). */
const MAX_ORIGINS = 20;

/**
 * Why `text` is not an origin as a browser writes it in the `Origin` header (scheme, host and a port other
 * than the default, nothing else: `https://a.example`, `http://127.0.0.1:8788`), or null when it is one.
 */
export function originProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `'${text}' is not an origin (write it as https://host or https://host:port)`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `'${text}' is not an http(s) origin`;
  if (url.origin !== text)
    return `'${text}' is not written as a browser sends it: use '${url.origin}' (no path, no trailing slash, lower case, no default port)`;
  return null;
}

/**
 * The string claims a request relies on, with the shape each must have: printable ASCII (no control character,
 * so no claim can break a header or a log line), bounded in length. `sub` may hold spaces (a partner's name),
 * the others not; `scope` is space-separated names.
 */
const STRING_CLAIMS = {
  sub: { pattern: /^[\x20-\x7e]{1,200}$/, what: "1 to 200 printable ASCII characters" },
  jti: { pattern: /^[\x21-\x7e]{1,200}$/, what: "1 to 200 printable ASCII characters without spaces" },
  env: { pattern: /^[\x21-\x7e]{1,64}$/, what: "1 to 64 printable ASCII characters without spaces" },
  scope: { pattern: /^[\x20-\x7e]{0,2000}$/, what: "scope names separated by spaces (printable ASCII, at most 2,000 characters)" },
} as const;

/**
 * Every claim whose shape is wrong, by name only: a claim's value is never repeated, since a signed token can
 * still carry anything (a NUL, CR or LF in `env` would otherwise reach the WWW-Authenticate header).
 * `token_type` and `origins`, when present, must be a string and a list of strings.
 */
export function claimShapeProblems(claims: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, { pattern, what }] of Object.entries(STRING_CLAIMS)) {
    const value = claims[name];
    if (typeof value !== "string" || !pattern.test(value)) problems.push(`${name} must be ${what}`);
  }
  if ("token_type" in claims && claims.token_type !== undefined && typeof claims.token_type !== "string") {
    problems.push("token_type must be the string 'secret' or 'pub'");
  }
  const origins = claims.origins;
  if (origins !== undefined && (!Array.isArray(origins) || !origins.every((o) => typeof o === "string" && /^[\x21-\x7e]{1,300}$/.test(o)))) {
    problems.push("origins must be a list of origins (printable ASCII, at most 300 characters each)");
  }
  return problems;
}

/** The kind of token these claims describe, or every problem with them. */
export function tokenKindOf(claims: Record<string, unknown>): { kind: TokenKind } | { problems: string[] } {
  // Only an absent token_type means secret: `null` (or any other non-string) is refused, not read as absent.
  const type = claims.token_type === undefined ? "secret" : claims.token_type;
  if (type === "secret") {
    return claims.origins === undefined
      ? { kind: { type: "secret" } }
      : { problems: ["origins belong to publishable tokens only (token_type 'pub')"] };
  }
  if (type !== "pub") return { problems: [`token_type must be 'secret' or 'pub', not ${JSON.stringify(type)}`] };
  const problems: string[] = [];
  const origins = claims.origins;
  if (!Array.isArray(origins) || origins.length === 0 || !origins.every((o): o is string => typeof o === "string")) {
    problems.push("a publishable token names the sites that may use it: origins, a non-empty list of origins");
  } else {
    if (origins.length > MAX_ORIGINS) problems.push(`a publishable token names at most ${MAX_ORIGINS} origins, not ${origins.length}`);
    if (new Set(origins).size !== origins.length) problems.push("origins names an origin twice");
    for (const origin of origins) {
      const problem = originProblem(origin);
      if (problem) problems.push(problem);
    }
  }
  const refused = [...parseScopeClaim(claims.scope)].filter((scope) => !isPublishableScope(scope));
  if (refused.length > 0) {
    problems.push(`a publishable token may carry only the *:read scopes, aps_calculator:use and id_parser:use, not ${refused.join(", ")}`);
  }
  return problems.length > 0 ? { problems } : { kind: { type: "pub", origins: origins as string[] } };
}
