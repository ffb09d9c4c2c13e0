// A bursary's application cycles and its recurrence, written once. Pure: no I/O and no clock (the reference
// date is a parameter). The build (build/bursaries.ts) applies these rules to sources/bursary-cycles.csv; the
// tests apply them to hand-written cycles.
//
// - The latest cycle is the one for the newest intake year; its dates are the bursary's `closing_date`.
// - Recurrence from past cycles: two published cycles on the same dates, that is with the same closing month
//   and day, and the same opening month and day where both publish one (a missing opening date does not
//   contradict one that is given).
// - The expected next cycle of an annual scheme is the latest published cycle moved on by whole years: the
//   first such cycle that closes on or after the reference date (the build date), and never earlier than the
//   year after the latest published one. It is a projection, never a published fact.
import type { RECURRENCE_BASES } from "../lib/vocabulary.ts";

export type Cycle = { intake_year: number; open_date: string | null; close_date: string };
export type RecurrenceBasis = (typeof RECURRENCE_BASES)[number];

export type ExpectedCycle = {
  intake_year: number;
  open_date: string | null;
  close_date: string;
  /** Always true: these dates are projected from the pattern, not published by the provider. */
  expected: true;
  basis: RecurrenceBasis;
};

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A YYYY-MM-DD date moved by whole years (negative: back); 29 February becomes 28 February in a common year. */
export function addYears(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  const monthDay = date.slice(5);
  const shifted = monthDay === "02-29" && !isLeap(year) ? "02-28" : monthDay;
  return `${String(year).padStart(4, "0")}-${shifted}`;
}

/** The cycles newest intake first (a copy; ties keep their order, and the build's key forbids them). */
export function newestFirst<C extends Cycle>(cycles: readonly C[]): C[] {
  return [...cycles].sort((a, b) => b.intake_year - a.intake_year);
}

/** The cycle of the newest intake, or null when there is none. */
export function latestCycle<C extends Cycle>(cycles: readonly C[]): C | null {
  return newestFirst(cycles)[0] ?? null;
}

const monthDay = (date: string) => date.slice(5);

/** Two cycles on the same dates: the same closing month and day, and the same opening month and day where both give one. */
export function sameDates(a: Cycle, b: Cycle): boolean {
  if (monthDay(a.close_date) !== monthDay(b.close_date)) return false;
  return a.open_date === null || b.open_date === null || monthDay(a.open_date) === monthDay(b.open_date);
}

/** The newest pair of cycles on the same dates (the basis of `past-cycles`), or null when there is none. */
export function repeatedDates<C extends Cycle>(cycles: readonly C[]): [C, C] | null {
  const sorted = newestFirst(cycles);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const [a, b] = [sorted[i] as C, sorted[j] as C];
      if (a.intake_year !== b.intake_year && sameDates(a, b)) return [a, b];
    }
  }
  return null;
}

/** The cycle after `latest` that an annual scheme is expected to hold: see the top of this file. */
export function expectedNextCycle(latest: Cycle, basis: RecurrenceBasis, onOrAfter: string): ExpectedCycle {
  let years = 1;
  while (addYears(latest.close_date, years) < onOrAfter) years++;
  return {
    intake_year: latest.intake_year + years,
    open_date: latest.open_date === null ? null : addYears(latest.open_date, years),
    close_date: addYears(latest.close_date, years),
    expected: true,
    basis,
  };
}

/** Whether a cycle closed more than a year before the reference date (the build warns about such latest cycles). */
export function closedOverAYearBefore(cycle: Cycle, reference: string): boolean {
  return cycle.close_date < addYears(reference, -1);
}

/** Whether a cycle accepts applications on a date: opened on or before it (or no opening date published) and closes on or after it. */
export function acceptsOn(cycle: Pick<Cycle, "open_date" | "close_date">, date: string): boolean {
  return (cycle.open_date === null || cycle.open_date <= date) && date <= cycle.close_date;
}
