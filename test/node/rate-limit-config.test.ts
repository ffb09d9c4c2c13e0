// The rate limits as configured: every environment of wrangler.jsonc (and the tests' own) binds one
// ratelimits binding per class of client, and RATE_LIMITS (what RateLimit-Policy reports) says exactly what
// each binding enforces: the binding cannot tell the Worker its own numbers.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { RATE_LIMIT_BINDINGS, RATE_LIMIT_CLASSES } from "../../functions/rate-limit.ts";
import { ROOT } from "../../support/test-dataset.ts";

const ENVIRONMENTS: [string, string | undefined][] = [
  ["wrangler.jsonc", undefined],
  ["wrangler.jsonc", "live"],
  ["test/worker/wrangler.jsonc", undefined],
];

type RateLimitBinding = { name: string; namespace_id: string; simple: { limit: number; period: number } };

function configOf(file: string, env: string | undefined): { vars: Record<string, unknown>; ratelimits: RateLimitBinding[] } {
  const config = unstable_readConfig({ config: path.join(ROOT, file), env }, { hideWarnings: true });
  return { vars: config.vars, ratelimits: config.ratelimits as RateLimitBinding[] };
}

describe("rate limits in every environment", () => {
  for (const [file, env] of ENVIRONMENTS) {
    it(`${file}${env ? ` (env ${env})` : ""}: one binding per class, and RATE_LIMITS equal to the bindings`, () => {
      const config = configOf(file, env);
      const policies = config.vars.RATE_LIMITS as Record<string, unknown>;
      for (const rateClass of RATE_LIMIT_CLASSES) {
        const binding = config.ratelimits.find((r) => r.name === RATE_LIMIT_BINDINGS[rateClass]);
        expect(binding, `${RATE_LIMIT_BINDINGS[rateClass]} in ratelimits`).toBeDefined();
        expect(policies[rateClass], `RATE_LIMITS.${rateClass}`).toEqual(binding?.simple);
      }
      const namespaces = config.ratelimits.map((r) => r.namespace_id);
      expect(new Set(namespaces).size).toBe(namespaces.length);
    });
  }

  it("production counts in namespaces of its own, with the limits the README gives", () => {
    const live = configOf("wrangler.jsonc", "live");
    const preview = configOf("wrangler.jsonc", undefined);
    const shared = live.ratelimits.filter((r) => preview.ratelimits.some((p) => p.namespace_id === r.namespace_id));
    expect(shared).toEqual([]);
    expect(live.vars.RATE_LIMITS).toEqual({
      secret: { limit: 600, period: 60 },
      publishable: { limit: 6000, period: 60 },
      visitor: { limit: 120, period: 60 },
      anonymous: { limit: 60, period: 60 },
    });
  });
});
