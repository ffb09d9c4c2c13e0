// The plain-Node property tests' runs and seed (support/property-settings.ts says how they are chosen): each
// property's runs are sized to what one run costs (a few thousand for a pure function on a short input, tens where
// a run judges a whole university), times PROPERTY_SCALE. A failure names the seed and path to replay (fast-check
// prints them). vitest's setup file for the plain-Node suite (vitest.node.config.ts).
import fc from "fast-check";
import { PROPERTY_SCALE, PROPERTY_SEED } from "../../support/property-settings.ts";

/** The runs of a property npm test runs `base` times. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * PROPERTY_SCALE));
}

// Every fc.assert of a test file draws from the seed, and one that names no runs makes fast-check's default 100, scaled.
fc.configureGlobal({ seed: PROPERTY_SEED, numRuns: runs(100) });
