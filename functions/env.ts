// What the Worker is configured with: wrangler.jsonc `vars` and `ratelimits`, plus secrets (TOKEN_JWKS) from
// .dev.vars locally and `wrangler secret put` in production.
import type { RateLimitClass, RateLimitPolicySetting } from "./rate-limit.ts";

export interface Env {
  ASSETS: Fetcher;
  /** Cloudflare's rate limiting bindings (wrangler.jsonc `ratelimits`), one per class of client. */
  RATE_LIMIT_SECRET?: RateLimit;
  RATE_LIMIT_PUBLISHABLE?: RateLimit;
  RATE_LIMIT_ANONYMOUS?: RateLimit;
  /** What each binding above enforces, as RateLimit-Policy reports it: {"secret": {"limit": 600, "period": 60}, ...}. */
  RATE_LIMITS?: Partial<Record<RateLimitClass, RateLimitPolicySetting>>;
  /** The token environment this deployment accepts: "test" (local, previews) or "live" (production). */
  TOKEN_ENV: string;
  /** JSON Web Key Set with the public keys tokens are verified with: {"keys":[{kty,crv,x,kid,alg}, ...]}. */
  TOKEN_JWKS?: string;
  /** Comma-separated allowed browser origins, or "*". */
  CORS_ORIGINS?: string;
  /** Base URL for mirrored documents (prospectuses); empty: "<this origin>/assets". */
  ASSET_URL?: string;
  /** Comma-separated token ids (jti) no longer accepted. */
  REVOKED_JTIS?: string;
  /** Seconds a client may reuse a GET response. */
  CACHE_MAX_AGE?: string;
  /** The longest a token may be valid (exp - iat), in days; default 400. */
  TOKEN_MAX_LIFETIME_DAYS?: string;
}

export function listSetting(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
