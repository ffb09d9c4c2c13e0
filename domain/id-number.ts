// South African ID number parser: pure (no I/O, no clock) and free of Node built-ins, so the same
// module runs in Node, in tests and inside the Worker (workerd). The reference date is a parameter.
//
// Layout YYMMDDSSSSCAZ: date of birth, sequence (first digit gives gender), citizenship, the former race
// digit (not validated: usually 8 or 9, legacy values exist), Luhn check digit.
// docs/id-parsing.md describes the rules and the result for the API documentation.

import { z } from "zod";
import { ISO_DATE as DATE_FORMAT } from "../lib/vocabulary.ts";

// The API's reference date is "today in Johannesburg"; it lives in lib/ because the build uses it too.
export { todayInJohannesburg } from "../lib/dates.ts";

const GENDERS = ["female", "male"] as const;
const CITIZENSHIPS = ["citizen", "permanent_resident", "refugee"] as const;
export type Gender = (typeof GENDERS)[number];
export type Citizenship = (typeof CITIZENSHIPS)[number];

/** A calendar date; month and day are 1-based. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Why an ID number is invalid. The first group says which check failed; the format hints (which always
 * come together with INVALID_LENGTH and/or NON_DIGIT) say what the input most likely suffered from, so a
 * client can tell its user what to fix.
 */
const ID_ERROR_DESCRIPTIONS = {
  NOT_A_STRING: "The ID number must be a string (no other check is made).",
  INVALID_LENGTH: "An ID number has exactly 13 digits (after trimming outer whitespace).",
  NON_DIGIT: "An ID number contains only the ASCII digits 0-9.",
  INVALID_DATE: "Digits 1-6 (YYMMDD) are not a real calendar date.",
  INVALID_CITIZENSHIP: "Digit 11 must be 0 (citizen), 1 (permanent resident) or 2 (refugee).",
  INVALID_CHECKSUM: "The check digit (digit 13) does not match the Luhn checksum.",
  EMPTY: "Format hint: the ID number is empty.",
  CONTAINS_WHITESPACE: "Format hint: spaces inside the number (e.g. the printed grouping 800101 5009 087); remove them.",
  CONTAINS_HYPHEN: "Format hint: hyphens or dashes inside the number; remove them.",
  CONTAINS_LETTER: "Format hint: a letter (e.g. the letter O instead of the digit 0).",
  UNICODE_DIGIT: "Format hint: non-ASCII digits (e.g. full-width or Arabic-Indic); use the digits 0-9.",
  DECIMAL_SUFFIX: "Format hint: a decimal part such as .0, typical of a number exported from a spreadsheet.",
  LEADING_ZERO_MISSING: "Format hint: 12 digits that form a valid ID number with a leading 0 restored (lost in a spreadsheet).",
} as const;

export type IdErrorCode = keyof typeof ID_ERROR_DESCRIPTIONS;

/** Every error code, in the order in which they appear in `errors`. */
export const ID_ERROR_CODES = Object.keys(ID_ERROR_DESCRIPTIONS) as IdErrorCode[];

export interface ParsedId {
  /** The input exactly as given (untrimmed) when it is a string; null otherwise. */
  id_number: string | null;
  /** Length, digits, date, citizenship and checksum all pass. */
  valid: boolean;
  /** YYYY-MM-DD; null unless 13 ASCII digits whose YYMMDD is a real date. */
  date_of_birth: string | null;
  /** null unless 13 ASCII digits. */
  gender: Gender | null;
  /** null unless 13 ASCII digits with citizenship digit 0, 1 or 2. */
  citizenship: Citizenship | null;
  /** Luhn over all 13 digits; false when the input is not 13 ASCII digits. */
  luhn_valid: boolean;
  /** Empty exactly when valid; ordered as in ID_ERROR_CODES. */
  errors: IdErrorCode[];
}

/** POST /v1/id/parse: the request body. Anything else is 422 invalid_id_request (functions/compute.ts). */
/** The request body: what the OpenAPI document shows and what the Worker validates requests with (functions/compute.ts). */
export const IdParseRequestSchema = z.object({
  id_number: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .describe(
      "A 13-digit South African ID number; outer whitespace is ignored. Any other string is answered with `valid: false` and the reasons in `errors`.",
    ),
});

/** The parser's result as the API returns it (the `data` of a 200), for the OpenAPI document and response checks. */
export const ParsedIdSchema = z.object({
  id_number: z.string().nullable().describe("The input exactly as given."),
  valid: z.boolean().describe("Length, digits, date, citizenship and checksum all pass."),
  date_of_birth: z
    .string()
    .regex(DATE_FORMAT)
    .nullable()
    .describe("YYYY-MM-DD, the most recent date not after today that the YYMMDD digits name; null unless 13 digits whose YYMMDD is a real date."),
  gender: z.enum(GENDERS).nullable().describe("From the sequence digits 7-10: 0000-4999 female, 5000-9999 male; null unless 13 digits."),
  citizenship: z.enum(CITIZENSHIPS).nullable().describe("From digit 11: 0 citizen, 1 permanent resident, 2 refugee; null otherwise."),
  luhn_valid: z.boolean().describe("The Luhn check over all 13 digits; false when the input is not 13 digits."),
  errors: z.array(z.enum(ID_ERROR_CODES as [IdErrorCode, ...IdErrorCode[]])).describe(
    `Why the number is invalid; empty exactly when valid:\n${Object.entries(ID_ERROR_DESCRIPTIONS)
      .map(([code, text]) => `- \`${code}\`: ${text}`)
      .join("\n")}`,
  ),
});

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const ID_LENGTH = 13;

const CITIZENSHIP_BY_DIGIT: Readonly<Record<string, Citizenship>> = {
  "0": "citizen",
  "1": "permanent_resident",
  "2": "refugee",
};

/**
 * Parses and validates a South African ID number against a reference date ("today" in
 * Africa/Johannesburg for the API; see todayInJohannesburg).
 *
 * Never throws for any `input`. Throws RangeError only for an invalid `referenceDate` (a programming
 * error: a wrong century would otherwise be returned silently).
 */
export function parseIdNumber(input: unknown, referenceDate: CalendarDate | string): ParsedId {
  const reference = toReferenceDate(referenceDate);
  if (typeof input !== "string") {
    return undecoded(null, ["NOT_A_STRING"]);
  }
  const candidate = isAsciiDigits(input, ID_LENGTH) ? input : trimAsciiWhitespace(input);
  if (!isAsciiDigits(candidate, ID_LENGTH)) {
    return undecoded(input, formatErrors(candidate, reference));
  }
  return decode(input, candidate, reference);
}

/** The Luhn check digit (0-9) that completes 12 ASCII digits into a 13-digit ID number. */
export function luhnCheckDigit(first12: string): number {
  if (!isAsciiDigits(first12, ID_LENGTH - 1)) {
    throw new RangeError(`luhnCheckDigit needs exactly 12 ASCII digits, got ${JSON.stringify(first12)}`);
  }
  // The check digit will sit at index 12, so counting from the right the doubled digits are the odd indices.
  const sum = luhnSum(first12);
  return (10 - (sum % 10)) % 10;
}

/** True when a string of ASCII digits passes the Luhn check (its last digit being the check digit). */
export function isLuhnValid(digits: string): boolean {
  if (digits.length < 2 || !isAsciiDigits(digits, digits.length)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let value = digits.charCodeAt(index) - DIGIT_0;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return sum % 10 === 0;
}

export interface IdNumberParts {
  /**
   * "YYYY-MM-DD" (the century is dropped) or raw "YYMMDD". Not checked against the calendar, so tests can
   * build IDs with impossible dates but a correct check digit.
   */
  date: string;
  /** 0-9999; 0-4999 encode female, 5000-9999 male. */
  sequence: number;
  /** 0-9; 0, 1 and 2 are the valid values. Defaults to 0 (citizen). */
  citizenshipDigit?: number;
  /** 0-9; the former race digit, usually 8 or 9 today. Defaults to 8. */
  aDigit?: number;
}

/** Builds a 13-digit ID number with a correct Luhn check digit. Throws RangeError on malformed parts. */
export function buildIdNumber(parts: IdNumberParts): string {
  const yymmdd = toYymmdd(parts.date);
  const { sequence, citizenshipDigit = 0, aDigit = 8 } = parts;
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > 9999) {
    throw new RangeError(`sequence must be an integer 0-9999, got ${sequence}`);
  }
  for (const [name, digit] of [
    ["citizenshipDigit", citizenshipDigit],
    ["aDigit", aDigit],
  ] as const) {
    if (!Number.isInteger(digit) || digit < 0 || digit > 9) {
      throw new RangeError(`${name} must be an integer 0-9, got ${digit}`);
    }
  }
  const first12 = `${yymmdd}${String(sequence).padStart(4, "0")}${citizenshipDigit}${aDigit}`;
  return `${first12}${luhnCheckDigit(first12)}`;
}

function decode(idNumber: string, digits: string, reference: CalendarDate): ParsedId {
  const errors: IdErrorCode[] = [];
  const dateOfBirth = decodeDateOfBirth(digits, reference);
  if (dateOfBirth === null) errors.push("INVALID_DATE");
  const citizenship = CITIZENSHIP_BY_DIGIT[digits.charAt(10)] ?? null;
  if (citizenship === null) errors.push("INVALID_CITIZENSHIP");
  const luhnValid = isLuhnValid(digits);
  if (!luhnValid) errors.push("INVALID_CHECKSUM");
  return {
    id_number: idNumber,
    valid: errors.length === 0,
    date_of_birth: dateOfBirth,
    // Only the first sequence digit matters: 0000-4999 female, 5000-9999 male.
    gender: digits.charCodeAt(6) - DIGIT_0 < 5 ? "female" : "male",
    citizenship,
    luhn_valid: luhnValid,
    errors,
  };
}

/**
 * The century is the one giving the most recent date not after the reference date. The comparison is on
 * the (year, month, day) tuple before calendar validation: validating first would make e.g. 000229 depend
 * on whether 1900 or 2000 was tried first, and a Date would silently roll 30 Feb over to March.
 */
function decodeDateOfBirth(digits: string, reference: CalendarDate): string | null {
  const yy = twoDigits(digits, 0);
  const month = twoDigits(digits, 2);
  const day = twoDigits(digits, 4);
  let year = reference.year - (reference.year % 100) + yy;
  if (compareDates(year, month, day, reference) > 0) year -= 100;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  // Month and day are already two digits in the input; only the year needs formatting.
  return `${year < 1000 ? String(year).padStart(4, "0") : year}-${digits.slice(2, 4)}-${digits.slice(4, 6)}`;
}

function formatErrors(trimmed: string, reference: CalendarDate): IdErrorCode[] {
  const found = new Set<IdErrorCode>();
  const characters = Array.from(trimmed);
  if (characters.length !== ID_LENGTH) found.add("INVALID_LENGTH");
  if (characters.length === 0) found.add("EMPTY");
  for (const character of characters) {
    const code = character.charCodeAt(0);
    if (code >= DIGIT_0 && code <= DIGIT_9) continue;
    found.add("NON_DIGIT");
    if (WHITESPACE.test(character)) found.add("CONTAINS_WHITESPACE");
    else if (HYPHEN.test(character)) found.add("CONTAINS_HYPHEN");
    else if (LETTER.test(character)) found.add("CONTAINS_LETTER");
    else if (DECIMAL_DIGIT.test(character)) found.add("UNICODE_DIGIT");
  }
  if (DECIMAL_SUFFIX.test(trimmed)) found.add("DECIMAL_SUFFIX");
  if (isAsciiDigits(trimmed, ID_LENGTH - 1) && decode("", `0${trimmed}`, reference).valid) {
    found.add("LEADING_ZERO_MISSING");
  }
  return ID_ERROR_CODES.filter((code) => found.has(code));
}

const WHITESPACE = /^\s$/u;
const HYPHEN = /^[\p{Pd}\u2212]$/u;
const LETTER = /^\p{L}$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const DECIMAL_SUFFIX = /^[0-9]+\.0+$/;

function undecoded(idNumber: string | null, errors: IdErrorCode[]): ParsedId {
  return {
    id_number: idNumber,
    valid: false,
    date_of_birth: null,
    gender: null,
    citizenship: null,
    luhn_valid: false,
    errors,
  };
}

function isAsciiDigits(text: string, length: number): boolean {
  if (text.length !== length) return false;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  return true;
}

function luhnSum(first12: string): number {
  let sum = 0;
  for (let index = 0; index < first12.length; index++) {
    let value = first12.charCodeAt(index) - DIGIT_0;
    if (index % 2 === 1) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
  }
  return sum;
}

// ASCII whitespace as in C's isspace: space, tab, LF, VT, FF, CR. Other Unicode spaces are kept, and then
// reported, because they do not come from ordinary copy-and-paste of a typed number.
function isAsciiWhitespace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function trimAsciiWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function twoDigits(digits: string, index: number): number {
  return (digits.charCodeAt(index) - DIGIT_0) * 10 + (digits.charCodeAt(index + 1) - DIGIT_0);
}

function compareDates(year: number, month: number, day: number, other: CalendarDate): number {
  return year - other.year || month - other.month || day - other.day;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

// The Worker passes the same "today" string on every call; remembering the last one spares the regex.
// Invisible to callers: the cached value is derived from the string alone.
let lastReferenceText: string | null = null;
let lastReferenceDate: CalendarDate | null = null;

function toReferenceDate(referenceDate: CalendarDate | string): CalendarDate {
  if (referenceDate === lastReferenceText && lastReferenceDate !== null) return lastReferenceDate;
  const date = readReferenceDate(referenceDate);
  if (typeof referenceDate === "string") {
    lastReferenceText = referenceDate;
    lastReferenceDate = date;
  }
  return date;
}

function readReferenceDate(referenceDate: CalendarDate | string): CalendarDate {
  let date: CalendarDate | null = null;
  if (typeof referenceDate === "string") {
    const match = ISO_DATE.exec(referenceDate);
    if (match) date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  } else if (typeof referenceDate === "object" && referenceDate !== null) {
    date = referenceDate;
  }
  // Years below 1000 would need more than the two-digit-year rule and a 4-digit YYYY output.
  if (
    date === null ||
    !Number.isInteger(date.year) ||
    !Number.isInteger(date.month) ||
    !Number.isInteger(date.day) ||
    date.year < 1000 ||
    date.year > 9999 ||
    date.month < 1 ||
    date.month > 12 ||
    date.day < 1 ||
    date.day > daysInMonth(date.year, date.month)
  ) {
    throw new RangeError(`referenceDate must be a real calendar date (YYYY-MM-DD), got ${JSON.stringify(referenceDate)}`);
  }
  return date;
}

function toYymmdd(date: string): string {
  if (isAsciiDigits(date, 6)) return date;
  const match = ISO_DATE.exec(date);
  if (!match) throw new RangeError(`date must be YYYY-MM-DD or YYMMDD, got ${JSON.stringify(date)}`);
  const [, year = "", month = "", day = ""] = match;
  return `${year.slice(2)}${month}${day}`;
}
