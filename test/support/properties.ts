// How the plain-Node property tests draw their cases. npm test draws the same cases every time (one fixed seed),
// so a verdict never depends on the draw and a failure replays as it happened; each property's runs are sized to
// what one run costs (a few thousand for a pure function on a short input, tens where a run judges a whole
// university). `npm run fuzz` draws more and other cases: it multiplies every property's runs by PROPERTY_SCALE and
// sets PROPERTY_SEED to a fresh seed it prints (scripts/fuzz.ts). A failure names the seed and path to replay
// (fast-check prints them).
import fc from "fast-check";

/** The seed of npm test's draw (any fixed integer would do: this one is the day it was fixed). */
const DEFAULT_SEED = 20261127;

function positive(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(value)}`);
  return number;
}

export const PROPERTY_SEED = Math.trunc(positive("PROPERTY_SEED", DEFAULT_SEED));
export const PROPERTY_SCALE = positive("PROPERTY_SCALE", 1);

/** The runs of a property npm test runs `base` times. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * PROPERTY_SCALE));
}

// vitest's setup file (vitest.node.config.ts): every fc.assert of a test file draws from the seed, and one that names
// no runs makes fast-check's default 100, scaled.
fc.configureGlobal({ seed: PROPERTY_SEED, numRuns: runs(100) });
