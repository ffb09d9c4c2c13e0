// How property tests draw their cases (test/support/properties.ts and test/worker/properties.ts apply it): npm test
// draws the same cases every time (one fixed seed), so a verdict never depends on the draw and a failure replays
// as it happened; `npm run fuzz` multiplies every property's runs by PROPERTY_SCALE and sets PROPERTY_SEED to a
// fresh seed it prints (scripts/fuzz.ts).

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
