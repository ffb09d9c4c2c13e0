// The pure rules of bursary cycles (domain/bursary-cycles.ts): dates moved by years, the latest cycle, the
// basis of a recurrence from past cycles, and the projection of an annual scheme's next cycle.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acceptsOn,
  addYears,
  closedOverAYearBefore,
  expectedNextCycle,
  latestCycle,
  newestFirst,
  repeatedDates,
  sameDates,
  type Cycle,
} from "../../domain/bursary-cycles.ts";
import { isRealDate } from "../../lib/dates.ts";

const cycle = (intake_year: number, open_date: string | null, close_date: string): Cycle => ({ intake_year, open_date, close_date });

describe("addYears", () => {
  it("moves a date by whole years; 29 February becomes 28 February in a common year, and stays in a leap year", () => {
    expect(addYears("2026-09-30", 1)).toBe("2027-09-30");
    expect(addYears("2026-09-30", -1)).toBe("2025-09-30");
    expect(addYears("2024-02-29", 1)).toBe("2025-02-28");
    expect(addYears("2024-02-29", 4)).toBe("2028-02-29");
    expect(addYears("2024-02-29", 76)).toBe("2100-02-28"); // 2100 is not a leap year
    expect(addYears("2024-02-29", -24)).toBe("2000-02-29"); // 2000 is
  });

  it("always gives a real date, the same month, and the same day except 29 February", () => {
    const day = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: -50, max: 50 }), (date, years) => {
        const moved = addYears(date, years);
        expect(isRealDate(moved)).toBe(true);
        expect(Number(moved.slice(0, 4))).toBe(Number(date.slice(0, 4)) + years);
        expect(moved.slice(5, 7)).toBe(date.slice(5, 7));
        if (date.slice(5) !== "02-29") expect(moved.slice(5)).toBe(date.slice(5));
      }),
    );
  });
});

describe("the latest cycle", () => {
  it("is the newest intake's, whatever the order of the rows", () => {
    const cycles = [cycle(2025, null, "2024-09-30"), cycle(2027, "2026-06-01", "2026-09-30"), cycle(2026, null, "2025-09-30")];
    expect(latestCycle(cycles)?.intake_year).toBe(2027);
    expect(newestFirst(cycles).map((c) => c.intake_year)).toEqual([2027, 2026, 2025]);
    expect(cycles.map((c) => c.intake_year)).toEqual([2025, 2027, 2026]); // not sorted in place
    expect(latestCycle([])).toBeNull();
  });
});

describe("recurrence from past cycles", () => {
  it("needs two cycles with the same closing month and day, and the same opening month and day where both give one", () => {
    expect(sameDates(cycle(2024, "2023-06-01", "2023-10-31"), cycle(2025, "2024-06-01", "2024-10-31"))).toBe(true);
    expect(sameDates(cycle(2024, null, "2023-10-31"), cycle(2026, "2025-06-01", "2025-10-31"))).toBe(true);
    expect(sameDates(cycle(2024, "2023-07-01", "2023-10-31"), cycle(2025, "2024-06-01", "2024-10-31"))).toBe(false);
    expect(sameDates(cycle(2024, null, "2023-10-30"), cycle(2025, null, "2024-10-31"))).toBe(false);
  });

  it("finds the newest such pair, or none", () => {
    const dws = [
      cycle(2025, "2024-05-01", "2024-09-30"),
      cycle(2024, "2023-07-01", "2023-11-30"),
      cycle(2023, "2022-06-01", "2022-10-31"),
      cycle(2022, "2021-06-01", "2021-10-31"),
    ];
    expect(repeatedDates(dws)?.map((c) => c.intake_year)).toEqual([2023, 2022]);
    expect(repeatedDates([cycle(2024, null, "2023-09-30"), cycle(2025, null, "2024-10-31")])).toBeNull();
    expect(repeatedDates([cycle(2025, null, "2024-10-31")])).toBeNull();
  });
});

describe("the expected next cycle", () => {
  const latest = cycle(2027, "2026-06-01", "2026-09-30");

  it("is the year after the latest cycle while that has not closed", () => {
    expect(expectedNextCycle(latest, "provider-statement", "2026-07-15")).toEqual({
      intake_year: 2028,
      open_date: "2027-06-01",
      close_date: "2027-09-30",
      expected: true,
      basis: "provider-statement",
    });
    expect(expectedNextCycle(latest, "past-cycles", "2026-09-30").intake_year).toBe(2028);
  });

  it("moves on to the first year that closes on or after the reference date, and keeps an unpublished opening date unpublished", () => {
    const old = cycle(2024, null, "2024-01-15");
    expect(expectedNextCycle(old, "past-cycles", "2026-11-24")).toEqual({
      intake_year: 2027,
      open_date: null,
      close_date: "2027-01-15",
      expected: true,
      basis: "past-cycles",
    });
    expect(expectedNextCycle(old, "past-cycles", "2027-01-15").close_date).toBe("2027-01-15");
    expect(expectedNextCycle(old, "past-cycles", "2027-01-16").close_date).toBe("2028-01-15");
  });

  it("keeps a window that spans New Year together (opening in one year, closing in the next)", () => {
    const funza = cycle(2026, "2025-10-07", "2026-02-01");
    expect(expectedNextCycle(funza, "past-cycles", "2026-11-24")).toMatchObject({
      intake_year: 2027,
      open_date: "2026-10-07",
      close_date: "2027-02-01",
    });
  });

  it("projects 29 February onto 28 February in a common year", () => {
    expect(expectedNextCycle(cycle(2025, "2024-01-10", "2024-02-29"), "provider-statement", "2024-03-01")).toMatchObject({
      intake_year: 2026,
      close_date: "2025-02-28",
    });
  });

  it("is always after the latest cycle, on or after the reference date, and less than a year after it", () => {
    const day = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, (close, reference) => {
        const next = expectedNextCycle(cycle(Number(close.slice(0, 4)) + 1, null, close), "past-cycles", reference);
        expect(next.close_date > close).toBe(true);
        expect(next.close_date >= reference).toBe(true);
        expect(next.intake_year - Number(close.slice(0, 4)) - 1).toBe(Number(next.close_date.slice(0, 4)) - Number(close.slice(0, 4)));
        if (next.close_date.slice(0, 4) !== String(Number(close.slice(0, 4)) + 1)) expect(addYears(next.close_date, -1) < reference).toBe(true);
      }),
    );
  });
});

describe("staleness and accepting applications", () => {
  it("a cycle is stale when it closed more than a year before the reference date", () => {
    expect(closedOverAYearBefore(cycle(2026, null, "2025-11-23"), "2026-11-24")).toBe(true);
    expect(closedOverAYearBefore(cycle(2026, null, "2025-11-24"), "2026-11-24")).toBe(false);
  });

  it("accepts applications from its opening date (or always, without one) to its closing date, both included", () => {
    const c = cycle(2027, "2026-06-01", "2026-09-30");
    expect(["2026-05-31", "2026-06-01", "2026-09-30", "2026-10-01"].map((d) => acceptsOn(c, d))).toEqual([false, true, true, false]);
    expect(acceptsOn(cycle(2027, null, "2026-09-30"), "1999-01-01")).toBe(true);
  });
});
