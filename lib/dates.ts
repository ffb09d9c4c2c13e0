// Dates in South Africa's time zone, for the build (what "today" is when checking verified_on) and the
// Worker (the reference date of the ID parser).

const JOHANNESBURG_OFFSET_MS = 2 * 60 * 60 * 1000;

/**
 * Today's date (YYYY-MM-DD) in Africa/Johannesburg for a given instant. South Africa Standard Time is
 * UTC+2 all year (no daylight saving since 1944), so plain arithmetic is exact and needs no time-zone
 * data, which keeps it identical in Node and workerd.
 */
export function todayInJohannesburg(now: Date): string {
  const shifted = new Date(now.getTime() + JOHANNESBURG_OFFSET_MS);
  if (Number.isNaN(shifted.getTime())) throw new RangeError("todayInJohannesburg needs a valid Date");
  return shifted.toISOString().slice(0, 10);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isRealDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The date `days` days after (or before, when negative) a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) throw new RangeError(`addDays needs a date written YYYY-MM-DD, not ${date}`);
  return new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
