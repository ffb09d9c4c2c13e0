// Values a test knows are there (an index in range, a key that exists), without a non-null assertion: a missing
// one fails the test, naming what was missing, instead of surfacing later as a TypeError.
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}, found ${value}`);
  return value;
}
