import { describe, expect, it } from "vitest";
import { ID_ERROR_CODES, buildIdNumber, isLuhnValid, luhnCheckDigit, parseIdNumber, todayInJohannesburg } from "../../domain/id-number.ts";
import { ID_NUMBER_CASES } from "../../domain/id-number-cases.ts";
import { present } from "../support/present.ts";

describe("parseIdNumber: case table", () => {
  it("has enough cases to be meaningful", () => {
    expect(ID_NUMBER_CASES.length).toBeGreaterThanOrEqual(40);
    const names = ID_NUMBER_CASES.map((testCase) => testCase.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(ID_NUMBER_CASES.map((testCase) => [testCase.name, testCase] as const))("%s", (_name, testCase) => {
    const result = parseIdNumber(testCase.input, testCase.referenceDate);
    expect(result).toEqual({
      id_number: typeof testCase.input === "string" ? testCase.input : null,
      ...testCase.expected,
    });
  });

  it("gives the same result for an object reference date as for the string form", () => {
    for (const testCase of ID_NUMBER_CASES) {
      const [year, month, day] = testCase.referenceDate.split("-").map(Number);
      const fromObject = parseIdNumber(testCase.input, {
        year: present(year, "a year"),
        month: present(month, "a month"),
        day: present(day, "a day"),
      });
      expect(fromObject, testCase.name).toEqual(parseIdNumber(testCase.input, testCase.referenceDate));
    }
  });
});

describe("parseIdNumber: result invariants over the case table", () => {
  it("is valid exactly when errors is empty", () => {
    for (const testCase of ID_NUMBER_CASES) {
      const result = parseIdNumber(testCase.input, testCase.referenceDate);
      expect(result.valid, testCase.name).toBe(result.errors.length === 0);
    }
  });

  it("lists errors in the documented order, without duplicates", () => {
    for (const testCase of ID_NUMBER_CASES) {
      const { errors } = parseIdNumber(testCase.input, testCase.referenceDate);
      const positions = errors.map((code) => ID_ERROR_CODES.indexOf(code));
      expect(positions, testCase.name).toEqual([...new Set(positions)].sort((a, b) => a - b));
    }
  });

  it("returns a JSON-safe object (the Worker serialises it as is)", () => {
    const result = parseIdNumber("8001015009087", "2026-01-01");
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe("parseIdNumber: reference date", () => {
  it("throws RangeError for a reference date that is not a real date", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "", "0999-01-01"]) {
      expect(() => parseIdNumber("8001015009087", bad), bad).toThrow(RangeError);
    }
    expect(() => parseIdNumber("8001015009087", { year: 2026, month: 0, day: 1 })).toThrow(RangeError);
    expect(() => parseIdNumber("8001015009087", { year: 2026.5, month: 1, day: 1 })).toThrow(RangeError);
  });

  it("uses each call's own reference date, also when the same ID is parsed with alternating dates", () => {
    for (let round = 0; round < 3; round++) {
      expect(parseIdNumber("2601020000082", "2026-01-01").date_of_birth).toBe("1926-01-02");
      expect(parseIdNumber("2601020000082", "2026-01-02").date_of_birth).toBe("2026-01-02");
      expect(() => parseIdNumber("2601020000082", "")).toThrow(RangeError);
    }
  });

  it("accepts the reference date 29 February of a leap year", () => {
    expect(parseIdNumber("0002295009084", "2024-02-29").date_of_birth).toBe("2000-02-29");
  });
});

describe("luhnCheckDigit and isLuhnValid", () => {
  it.each([
    ["800101500908", 7],
    ["731119001308", 0],
    ["900104981808", 0],
    ["920220472008", 3],
    ["000000000000", 0],
  ])("check digit of %s is %i", (first12, digit) => {
    expect(luhnCheckDigit(first12)).toBe(digit);
    expect(isLuhnValid(`${first12}${digit}`)).toBe(true);
    expect(isLuhnValid(`${first12}${(digit + 1) % 10}`)).toBe(false);
  });

  it("rejects anything but 12 ASCII digits", () => {
    for (const bad of ["80010150090", "8001015009087", "80010150090O", "８００１０１５００９０８"]) {
      expect(() => luhnCheckDigit(bad), bad).toThrow(RangeError);
    }
  });

  it("isLuhnValid is false for non-digits and too-short strings", () => {
    expect(isLuhnValid("")).toBe(false);
    expect(isLuhnValid("0")).toBe(false);
    expect(isLuhnValid("800101500908a")).toBe(false);
  });
});

describe("buildIdNumber", () => {
  it("builds the canonical example from its parts", () => {
    expect(buildIdNumber({ date: "1980-01-01", sequence: 5009, citizenshipDigit: 0, aDigit: 8 })).toBe("8001015009087");
  });

  it("accepts raw YYMMDD (also impossible dates) and defaults C=0, A=8", () => {
    expect(buildIdNumber({ date: "800230", sequence: 5009 })).toBe("8002305009084");
    expect(buildIdNumber({ date: "731119", sequence: 13 })).toBe("7311190013080");
  });

  it("rejects malformed parts", () => {
    expect(() => buildIdNumber({ date: "1980-1-1", sequence: 0 })).toThrow(RangeError);
    expect(() => buildIdNumber({ date: "800101", sequence: 10000 })).toThrow(RangeError);
    expect(() => buildIdNumber({ date: "800101", sequence: -1 })).toThrow(RangeError);
    expect(() => buildIdNumber({ date: "800101", sequence: 1, citizenshipDigit: 10 })).toThrow(RangeError);
    expect(() => buildIdNumber({ date: "800101", sequence: 1, aDigit: 1.5 })).toThrow(RangeError);
  });
});

describe("todayInJohannesburg", () => {
  it.each([
    ["2026-01-01T00:00:00Z", "2026-01-01"],
    ["2025-12-31T21:59:59.999Z", "2025-12-31"],
    ["2025-12-31T22:00:00Z", "2026-01-01"],
    // UTC+2 in winter as well: no daylight saving.
    ["2026-06-30T21:59:59Z", "2026-06-30"],
    ["2026-06-30T22:00:00Z", "2026-07-01"],
    ["2024-02-28T22:30:00Z", "2024-02-29"],
  ])("%s is %s in Johannesburg", (instant, expected) => {
    expect(todayInJohannesburg(new Date(instant))).toBe(expected);
  });

  it("agrees with the IANA time zone data where the runtime has it", () => {
    const format = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg", year: "numeric", month: "2-digit", day: "2-digit" });
    for (let hour = 0; hour < 24 * 366; hour += 7) {
      const instant = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000 + 59 * 60_000);
      expect(todayInJohannesburg(instant), instant.toISOString()).toBe(format.format(instant));
    }
  });

  it("throws RangeError for an invalid Date", () => {
    expect(() => todayInJohannesburg(new Date(Number.NaN))).toThrow(RangeError);
  });
});
