// What the Worker is configured with. The bindings and vars of wrangler.jsonc are typed by `wrangler types` in
// worker-configuration.d.ts (generated and committed: `npm run types` after changing wrangler.jsonc; `npm run
// lint` fails while it is out of date), where each var is documented. Added here is what wrangler cannot see:
// the secret TOKEN_JWKS, and the shape of the RATE_LIMITS var (a JSON object, which it types as `object`).
import type { RateLimitClass, RateLimitPolicySetting } from "./rate-limit.ts";

export interface Env extends Cloudflare.Env {
  /** Secret: the JSON Web Key Set tokens are verified with, {"keys":[{kty,crv,x,kid,alg}, ...]}; from .keys/worker.env
   * locally (npm start) and `wrangler secret put TOKEN_JWKS` in production. Without it every token is refused. */
  TOKEN_JWKS?: string;
  /** What each ratelimits binding enforces, as RateLimit-Policy reports it: {"secret": {"limit": 600, "period": 60}, ...}. */
  RATE_LIMITS: Partial<Record<RateLimitClass, RateLimitPolicySetting>>;
}

export function listSetting(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
