// The workerd tests' property runs and seed, chosen as support/property-settings.ts says (the plain-Node ones:
// test/support/properties.ts). They come in as bindings (vitest.worker.config.ts): workerd has no process.env.
// vitest's setup file for the workerd suite.
import { env } from "cloudflare:workers";
import fc from "fast-check";

const settings = env as unknown as { PROPERTY_SEED: string; PROPERTY_SCALE: string };

/** The runs of a property npm test runs `base` times. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * Number(settings.PROPERTY_SCALE)));
}

fc.configureGlobal({ seed: Number(settings.PROPERTY_SEED), numRuns: runs(100) });
