// Zod schemas for single CSV cells. Every cell arrives as a string ("" when empty) and is trimmed; each
// schema's error message says what was expected, which the build report prints next to the bad value.
import { z } from "zod";
import { parseRequirements, type RequirementClause } from "../../domain/requirements.ts";
import { isRealDate } from "../../lib/dates.ts";
import { SLUG, UUID_STRICT } from "../../lib/vocabulary.ts";

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

// Shared with the Worker's query parameters (open_on), so one rule says what a real date is.
export { isRealDate };

/** Printable ASCII only: a URL as a URI (RFC 3986), non-ASCII characters and spaces percent-encoded. */
const URI_CHARACTERS = /^[\x21-\x7e]+$/;

/** An absolute http:// or https:// URL (bursary tables: some providers' sites have no https page). */
function isWebUrl(value: string): boolean {
  return remembered(webVerdicts, value, isWebUrlUncached);
}

function isWebUrlUncached(value: string): boolean {
  if (!URI_CHARACTERS.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** URL checks by value: a national table names the same few source URLs on every row, and parsing a URL is
 * the dearest cell check. Bounded, so a table of distinct URLs cannot grow it without end. One map per check, keyed
 * by the value itself (a key made per cell was a string for every row). */
const webVerdicts = new Map<string, boolean>();
const httpsVerdicts = new Map<string, boolean>();
function remembered(verdicts: Map<string, boolean>, value: string, check: (value: string) => boolean): boolean {
  const known = verdicts.get(value);
  if (known !== undefined) return known;
  const verdict = check(value);
  if (verdicts.size >= 10_000) verdicts.clear();
  verdicts.set(value, verdict);
  return verdict;
}

function isHttpsUrl(value: string): boolean {
  return remembered(httpsVerdicts, value, isHttpsUrlUncached);
}

function isHttpsUrlUncached(value: string): boolean {
  if (!URI_CHARACTERS.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/**
 * The converter behind each schema cellOf made (undefined: the value is not accepted). The validate stage runs
 * a row's cells through these directly when every cell of its table has one (build/validate.ts), and through
 * zod only for a row that fails, for its messages: zod's per-cell work was 9% of a build (issue 31).
 */
const CONVERTERS = new WeakMap<z.ZodType, (raw: string) => unknown>();

export function cellConverter(schema: z.core.SomeType): ((raw: string) => unknown) | undefined {
  return CONVERTERS.get(schema as z.ZodType);
}

/** A cell schema from a converter that returns undefined for a value it does not accept. */
function cellOf<T>(expected: string, convert: (value: string) => T | undefined) {
  const schema = z.string().transform((raw, ctx): T => {
    const converted = convert(raw.trim());
    if (converted === undefined) {
      ctx.addIssue({ code: "custom", message: expected });
      return z.NEVER;
    }
    return converted;
  });
  CONVERTERS.set(schema, (raw) => convert(raw.trim()));
  return schema;
}

/** The same cell, but empty is allowed and becomes null. */
function optionalCellOf<T>(expected: string, convert: (value: string) => T | undefined) {
  return cellOf<T | null>(`${expected}, or an empty cell`, (value) => (value === "" ? null : convert(value)));
}

const asText = (v: string) => (v === "" ? undefined : v);
const asSlug = (v: string) => (SLUG.test(v) ? v : undefined);
const asInteger = (min: number, max: number) => (v: string) => (INTEGER.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : undefined);
const asDecimal = (min: number, max: number) => (v: string) => (DECIMAL.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : undefined);
/** The last date checked and its verdict: a table's rows mostly share their verified_on. */
let lastDate: { value: string; real: boolean } = { value: "", real: false };
const asDate = (v: string) => {
  if (v !== lastDate.value) lastDate = { value: v, real: isRealDate(v) };
  return lastDate.real ? v : undefined;
};
const asOneOf =
  <T extends string>(values: readonly T[]) =>
  (v: string) =>
    values.includes(v as T) ? (v as T) : undefined;
const asDigits = (min: number, max: number) => {
  const digits = new RegExp(`^\\d{${min},${max}}$`);
  return (v: string) => (digits.test(v) ? v : undefined);
};

const SLUG_TEXT = "a slug: lower-case letters and digits, words joined by single hyphens";
const digitsText = (min: number, max: number) =>
  min === max ? `exactly ${min} digits (keep leading zeros)` : `${min} to ${max} digits (keep leading zeros)`;

export const text = () => cellOf("a non-empty text", asText);
export const optionalText = () => cellOf<string | null>("text", (v) => (v === "" ? null : v));
export const slug = () => cellOf(SLUG_TEXT, asSlug);
export const optionalSlug = () => optionalCellOf(SLUG_TEXT, asSlug);
export const uuid = () => cellOf("a lower-case UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e", (v) => (UUID_STRICT.test(v) ? v : undefined));
export const integer = (min: number, max: number) => cellOf(`an integer from ${min} to ${max}`, asInteger(min, max));
export const optionalInteger = (min: number, max: number) => optionalCellOf(`an integer from ${min} to ${max}`, asInteger(min, max));
export const decimal = (min: number, max: number) =>
  cellOf(`a number from ${min} to ${max} (decimal point, no thousands separator)`, asDecimal(min, max));
export const optionalDecimal = (min: number, max: number) =>
  optionalCellOf(`a number from ${min} to ${max} (decimal point, no thousands separator)`, asDecimal(min, max));
export const optionalBoolean = () => optionalCellOf("true or false", (v) => (v === "true" ? true : v === "false" ? false : undefined));
export const date = () => cellOf("a real date written YYYY-MM-DD", asDate);
export const optionalDate = () => optionalCellOf("a real date written YYYY-MM-DD", asDate);
export const httpsUrl = () =>
  cellOf("an absolute https:// URL, with spaces and characters outside ASCII percent-encoded (– as %E2%80%93)", (v) =>
    isHttpsUrl(v) ? v : undefined,
  );
const WEB_URL_TEXT = "an absolute https:// (or http://) URL, with spaces and characters outside ASCII percent-encoded";
export const webUrl = () => cellOf(WEB_URL_TEXT, (v) => (isWebUrl(v) ? v : undefined));
export const optionalWebUrl = () => optionalCellOf(WEB_URL_TEXT, (v) => (isWebUrl(v) ? v : undefined));
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  cellOf(`one of: ${values.join(", ")}`, asOneOf<T[number]>(values));
export const optionalOneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  optionalCellOf(`one of: ${values.join(", ")}`, asOneOf<T[number]>(values));
export const trimmedUpper = () => cellOf("a code of 2 or 3 capital letters", (v) => (/^[A-Z]{2,3}$/.test(v) ? v : undefined));
/** Digits kept as text, so leading zeros survive (EMIS numbers, postal codes). */
export const digits = (min: number, max = min) => cellOf(digitsText(min, max), asDigits(min, max));
export const optionalDigits = (count: number) => optionalCellOf(digitsText(count, count), asDigits(count, count));

/** What a witness says of a minimum APS: a number, "none" (it states there is no APS minimum), or nothing (empty). */
export const apsStatement = () =>
  cellOf<number | "none" | null>("an integer from 0 to 1000, none (the witness states there is no APS minimum), or an empty cell", (v) =>
    v === "" ? null : v === "none" ? "none" : asInteger(0, 1000)(v),
  );

/** A witness's subject requirements in the compact form of domain/requirements.ts (empty: says nothing). */
export const requirementStatement = () => {
  const schema = z.string().transform((raw, ctx): RequirementClause[] | null => {
    const parsed = parseRequirements(raw);
    if (parsed === null) return null;
    if (parsed.ok) return parsed.clauses;
    ctx.addIssue({
      code: "custom",
      message: `requirements in the compact form, e.g. english-home-language:5|english-first-additional-language:5;mathematics:60%;@other-language:4, "none", or an empty cell (${parsed.message})`,
    });
    return z.NEVER;
  });
  CONVERTERS.set(schema, (raw) => {
    const parsed = parseRequirements(raw);
    return parsed === null ? null : parsed.ok ? parsed.clauses : undefined;
  });
  return schema;
};

/**
 * A list of closed values in one cell, separated by ";", each at most once. `optional`: an empty cell is the
 * empty list. The message names the items that are not in the list.
 */
export function listOf<const T extends readonly [string, ...string[]]>(values: T, options: { optional?: boolean; what?: string } = {}) {
  const what = options.what ?? `one of: ${values.join(", ")}`;
  const expected = `${options.optional ? "" : "at least one item, "}each ${what}; separate items with ;${options.optional ? " (or an empty cell)" : ""}`;
  return z.string().transform((raw, ctx): T[number][] => {
    const items = raw
      .split(";")
      .map((item) => item.trim())
      .filter((item) => item !== "");
    const unknown = items.filter((item) => !values.includes(item));
    const repeated = items.filter((item, i) => items.indexOf(item) !== i);
    if ((items.length === 0 && !options.optional) || unknown.length > 0 || repeated.length > 0) {
      const why = [
        unknown.length > 0 ? `not ${unknown.map((u) => JSON.stringify(u)).join(", ")}` : "",
        repeated.length > 0 ? `${repeated.map((r) => JSON.stringify(r)).join(", ")} more than once` : "",
      ].filter(Boolean);
      ctx.addIssue({ code: "custom", message: why.length > 0 ? `${expected} (${why.join("; ")})` : expected });
      return z.NEVER;
    }
    return items as T[number][];
  });
}

/** A list of slugs in one cell (references to another table, checked by the link stage); empty: the empty list. */
export const optionalSlugList = () =>
  cellOf<string[]>(`slugs separated by ; (${SLUG_TEXT}), or an empty cell`, (v) => {
    const items = v
      .split(";")
      .map((item) => item.trim())
      .filter((item) => item !== "");
    return items.every((item) => SLUG.test(item)) && new Set(items).size === items.length ? items : undefined;
  });

/**
 * Provenance every table carries. `today` is the build's date, so a row "verified" in the future
 * (a typo such as 2062-11-21) is caught.
 */
export const provenance = (today: string) => ({
  source_url: httpsUrl(),
  verified_on: cellOf(`a real date written YYYY-MM-DD, not after today (${today})`, (v) => (isRealDate(v) && v <= today ? v : undefined)),
});
