// The bindings the Worker's fetch handler needs, faked for a plain-Node test that calls it directly: a public key
// for tokens minted by that test, the test's ASSETS fetch and rate limiter, generous limits.
import type { Env } from "../../functions/env.ts";
import { type newSigningKey, publicJwk } from "../../support/signing-keys.ts";

type Limiter = { limit: () => Promise<{ success: boolean }> };

export function fakeWorkerEnv(
  key: Awaited<ReturnType<typeof newSigningKey>>,
  assets: (request: Request) => Promise<Response>,
  limiter: Limiter = { limit: async () => ({ success: true }) },
): Env {
  const limits = { limit: 1000, period: 60 };
  return {
    ASSETS: { fetch: assets },
    TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }),
    TOKEN_ENV: "test",
    CORS_ORIGINS: "*",
    RATE_LIMIT_SECRET: limiter,
    RATE_LIMIT_ANONYMOUS: limiter,
    RATE_LIMITS: { secret: limits, anonymous: limits },
  } as unknown as Env;
}
