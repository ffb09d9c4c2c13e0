import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { describe, expect, it } from "vitest";
import { buildIdNumber, parseIdNumber, type ParsedId } from "../../domain/id-number.ts";

const DAY_MS = 86_400_000;

function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

// Reference dates from 1900 to 2199, so that both century sides and 1900/2000/2100 leap rules are exercised.
const referenceDays = fc.integer({ min: Date.UTC(1900, 0, 1) / DAY_MS, max: Date.UTC(2199, 11, 31) / DAY_MS });
const referenceDate = referenceDays.map((days) => isoDate(days * DAY_MS));

// 100 years are at least 36,524 days, so a birth date up to 36,523 days back always has a unique century.
const daysBeforeReference = fc.integer({ min: 0, max: 36_523 });

const asciiWhitespace = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u000b", "\f"), maxLength: 4 });

const thirteenDigits = fc.stringMatching(/^[0-9]{13}$/);

// Strings close to an ID number, so that the interesting branches are reached far more often than by
// arbitrary text: digits mixed with whitespace, separators, look-alike digits and a decimal point.
const nearIdString = fc.string({
  unit: fc.constantFrom("0", "1", "2", "5", "8", "9", " ", "\t", "\n", "-", ".", "O", "٨", "８", "\u00a0", "😀"),
  maxLength: 16,
});

const validIdParts = fc.record({
  reference: referenceDays,
  daysBack: daysBeforeReference,
  sequence: fc.integer({ min: 0, max: 9999 }),
  citizenshipDigit: fc.constantFrom(0, 1, 2),
  aDigit: fc.integer({ min: 0, max: 9 }),
});

function expectWellFormed(result: ParsedId, input: unknown): void {
  expect(result.id_number).toBe(typeof input === "string" ? input : null);
  expect(result.valid).toBe(result.errors.length === 0);
  if (result.valid) {
    expect(result.luhn_valid).toBe(true);
    expect(result.date_of_birth).not.toBeNull();
    expect(result.gender).not.toBeNull();
    expect(result.citizenship).not.toBeNull();
  }
  if (result.gender === null) {
    // Not decoded at all: no field may carry a value.
    expect([result.date_of_birth, result.citizenship, result.luhn_valid]).toEqual([null, null, false]);
  }
}

describe("parseIdNumber properties", () => {
  it("never throws for arbitrary strings, and returns a well-formed result", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), nearIdString, thirteenDigits), referenceDate, (input, reference) => {
        expectWellFormed(parseIdNumber(input, reference), input);
      }),
      { numRuns: runs(500) },
    );
  });

  it("never throws for arbitrary values", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
          withNullPrototype: true,
        }),
        (input) => {
          expectWellFormed(parseIdNumber(input, "2026-01-01"), input);
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it("valid implies luhn_valid, and a valid birth date is never after the reference date", () => {
    fc.assert(
      fc.property(thirteenDigits, referenceDate, (input, reference) => {
        const result = parseIdNumber(input, reference);
        if (result.valid) expect(result.luhn_valid).toBe(true);
        if (result.date_of_birth !== null) expect(result.date_of_birth <= reference).toBe(true);
        // 13 ASCII digits are always decoded as far as the digits allow.
        expect(result.gender).not.toBeNull();
      }),
      { numRuns: runs(1000) },
    );
  });

  it("a generated valid ID parses back to its date of birth, gender and citizenship", () => {
    fc.assert(
      fc.property(validIdParts, ({ reference, daysBack, sequence, citizenshipDigit, aDigit }) => {
        const referenceIso = isoDate(reference * DAY_MS);
        const birth = isoDate((reference - daysBack) * DAY_MS);
        const idNumber = buildIdNumber({ date: birth, sequence, citizenshipDigit, aDigit });
        expect(parseIdNumber(idNumber, referenceIso)).toEqual({
          id_number: idNumber,
          valid: true,
          date_of_birth: birth,
          gender: sequence < 5000 ? "female" : "male",
          citizenship: ["citizen", "permanent_resident", "refugee"][citizenshipDigit],
          luhn_valid: true,
          errors: [],
        });
      }),
      { numRuns: runs(1000) },
    );
  });

  it("changing any one digit of a valid ID makes luhn_valid false", () => {
    fc.assert(
      fc.property(
        validIdParts,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 9 }),
        ({ reference, daysBack, sequence, citizenshipDigit, aDigit }, position, shift) => {
          const referenceIso = isoDate(reference * DAY_MS);
          const idNumber = buildIdNumber({ date: isoDate((reference - daysBack) * DAY_MS), sequence, citizenshipDigit, aDigit });
          const changedDigit = (Number(idNumber[position]) + shift) % 10;
          const changed = `${idNumber.slice(0, position)}${changedDigit}${idNumber.slice(position + 1)}`;
          const result = parseIdNumber(changed, referenceIso);
          expect(result.luhn_valid).toBe(false);
          expect(result.valid).toBe(false);
          expect(result.errors).toContain("INVALID_CHECKSUM");
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it("outer ASCII whitespace does not change the result apart from the echoed id_number", () => {
    fc.assert(
      fc.property(fc.oneof(thirteenDigits, nearIdString), asciiWhitespace, asciiWhitespace, referenceDate, (core, before, after, reference) => {
        const padded = `${before}${core}${after}`;
        const trimmedCore = core.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");
        expect(parseIdNumber(padded, reference)).toEqual({ ...parseIdNumber(trimmedCore, reference), id_number: padded });
      }),
      { numRuns: runs(1000) },
    );
  });
});
