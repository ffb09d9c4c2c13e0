// Rate limits (README: Rate limits). Every request but a CORS preflight is counted by Cloudflare's rate
// limiting binding of its class of client:
//   a valid secret token        key: its jti               binding RATE_LIMIT_SECRET
//   a valid publishable token   key: its jti and the client address   binding RATE_LIMIT_VISITOR (one visitor's quota),
//                               then, if that allowed it, key: its jti   binding RATE_LIMIT_PUBLISHABLE (the
//                               token's ceiling, high: every visitor of the partner's site shares it)
//   anything else               key: the client address    binding RATE_LIMIT_ANONYMOUS
//                               (no token, an invalid one, a publishable token from a site not its own, and
//                                the public documents)
// A publishable token is public, so one address flooding with it uses up its own quota only, never its
// site's other visitors'.
// The binding's call is the only I/O this adds; if it fails, the request goes on (logged), while a deployment
// without the binding or its policy answers 500 misconfigured. It answers allowed or not, nothing more, so the numbers the
// IETF RateLimit fields report beside it come from the policy in RATE_LIMITS (kept equal to the bindings'
// `simple` settings; a test compares them in every environment) and from a count this isolate keeps:
//   RateLimit-Policy: "<class>";q=<limit>;w=<period>
//   RateLimit:        "<class>";r=<remaining>;t=<seconds until the period ends>
// Periods are aligned to the clock (a 60 s period ends on the minute), as the local runtime counts them.
// `r` is this isolate's count: exact where one isolate sees all of a key's requests (wrangler dev, tests),
// an upper bound in production, where a key's requests are spread over isolates (the binding counts per
// Cloudflare location). A refusal is always r=0, with Retry-After.
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";

export const RATE_LIMIT_CLASSES = ["secret", "publishable", "visitor", "anonymous"] as const;
export type RateLimitClass = (typeof RATE_LIMIT_CLASSES)[number];

/** The binding's `simple` setting: `limit` requests per `period` seconds (10 or 60, what Cloudflare offers). */
export type RateLimitPolicySetting = { limit: number; period: number };

export type RateLimitOutcome = { class: RateLimitClass; limit: number; period: number; allowed: boolean; remaining: number; reset: number };

export const RATE_LIMIT_BINDINGS = {
  secret: "RATE_LIMIT_SECRET",
  publishable: "RATE_LIMIT_PUBLISHABLE",
  visitor: "RATE_LIMIT_VISITOR",
  anonymous: "RATE_LIMIT_ANONYMOUS",
} as const satisfies Record<RateLimitClass, keyof Env>;

/** The address Cloudflare saw the request come from (it sets CF-Connecting-IP and overwrites a client's own). */
export function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "unknown";
}

// This isolate's count per class and key in the current period: plain numbers, bounded, emptied when full.
const counted = new Map<string, { window: number; used: number }>();
const COUNTED_LIMIT = 10_000;

function policyOf(env: Env, rateClass: RateLimitClass): RateLimitPolicySetting & { binding: RateLimit } {
  const binding = env[RATE_LIMIT_BINDINGS[rateClass]];
  const policy = env.RATE_LIMITS?.[rateClass];
  const valid = policy !== undefined && Number.isInteger(policy.limit) && policy.limit > 0 && (policy.period === 10 || policy.period === 60);
  if (binding === undefined || !valid) {
    console.error(
      `the ${rateClass} rate limit is not configured: binding ${RATE_LIMIT_BINDINGS[rateClass]} ${binding ? "present" : "missing"}, RATE_LIMITS.${rateClass} = ${JSON.stringify(policy)}`,
    );
    throw new ApiError("misconfigured", "This deployment's rate limits are not configured; the error has been logged");
  }
  return { ...policy, binding };
}

/** Counts one request of `key` in its class's binding; the outcome says whether it may go on. */
export async function countRequest(env: Env, rateClass: RateLimitClass, key: string, now = Date.now()): Promise<RateLimitOutcome> {
  const { binding, limit, period } = policyOf(env, rateClass);
  // A limiter that fails lets the request go on (logged): its outage must not take the API down with it.
  const success = await binding.limit({ key }).then(
    (outcome) => outcome.success,
    (error: unknown) => {
      console.error(`the ${rateClass} rate limit could not count a request; letting it through:`, error);
      return true;
    },
  );
  const seconds = Math.floor(now / 1000);
  const window = Math.floor(seconds / period);
  const id = `${rateClass} ${key}`;
  let entry = counted.get(id);
  if (entry?.window !== window) {
    if (counted.size >= COUNTED_LIMIT) counted.clear();
    entry = { window, used: 0 };
    counted.set(id, entry);
  }
  entry.used = success ? entry.used + 1 : limit;
  return { class: rateClass, limit, period, allowed: success, remaining: Math.max(0, limit - entry.used), reset: period - (seconds % period) };
}

/** The 429 for a refused request. */
export function rateLimited(outcome: RateLimitOutcome): ApiError {
  const who = {
    anonymous: "from this address without a valid token",
    visitor: "from this address with this publishable token",
    publishable: "for this publishable token (all of its site's visitors together)",
    secret: "for this secret token",
  }[outcome.class];
  return new ApiError(
    "rate_limited",
    `Too many requests ${who}: at most ${outcome.limit} every ${outcome.period} s; try again in ${outcome.reset} s`,
    {
      headers: { "retry-after": String(outcome.reset) },
    },
  );
}

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10) for a counted request: one list item
 * per policy that counted it (a publishable token's request: its visitor's quota, then the token's ceiling). */
export function rateLimitHeaders(outcomes: readonly RateLimitOutcome[]): Record<string, string> {
  if (outcomes.length === 0) return {};
  return {
    "ratelimit-policy": outcomes.map((o) => `"${o.class}";q=${o.limit};w=${o.period}`).join(", "),
    ratelimit: outcomes.map((o) => `"${o.class}";r=${o.remaining};t=${o.reset}`).join(", "),
  };
}
