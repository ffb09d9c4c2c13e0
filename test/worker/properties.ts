// The workerd tests' property runs, as test/support/properties.ts sets the plain-Node ones: npm test draws the same
// cases every run (PROPERTY_SEED), npm run fuzz more (PROPERTY_SCALE) and others (a fresh seed). The values come in
// as bindings (vitest.worker.config.ts): workerd has no process.env. vitest's setup file for the workerd suite.
import { env } from "cloudflare:workers";
import fc from "fast-check";

const settings = env as unknown as { PROPERTY_SEED: string; PROPERTY_SCALE: string };

/** The runs of a property npm test runs `base` times. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * Number(settings.PROPERTY_SCALE)));
}

fc.configureGlobal({ seed: Number(settings.PROPERTY_SEED), numRuns: runs(100) });
