// Evaluating a list query against a find index (lib/find-index.ts): which rows match every criterion,
// in the documented order. Pure: the Worker (functions/find.ts) parses and resolves the parameters,
// loads the index parts and builds the page; the tests call this directly as well.
//
// Order: with `near`, nearest first; else with `q`, exact name first, then names that start with the
// query, then the other matches; ties (and plain filters) keep the list's own order.
import { columnValue, rowsWithWords, type Column, type FindIndexPart } from "./find-index.ts";
import { boundingBox, distanceKm } from "./geo.ts";

/** How a parameter selects rows of a list's find index (lib/find.ts evaluates these). */
export type Match =
  /** page and per_page: lib/pagination.ts; a bad value is 400 invalid_pagination. */
  | { kind: "page" }
  /** The row's value in `column` equals the parameter's value. */
  | { kind: "equals"; column: string }
  /** Either column equals the value (a postal code's street or box code). */
  | { kind: "either"; columns: string[] }
  /** The row's list in `column` holds the value (a qualification's requirement subjects). */
  | { kind: "includes"; column: string }
  /** The column holds folded text (lib/text.ts searchKey) equal to the folded value. */
  | { kind: "folded"; column: string }
  /** A province id or code, resolved against the provinces list; the column holds province ids. */
  | { kind: "province"; column: string }
  /** The column holds [open_date | null, close_date] cycles; one must span the date. */
  | { kind: "open-on"; column: string }
  /** Name search: every query word starts a word of one of the columns (the first is the name). */
  | { kind: "search"; columns: string[] }
  /** Within `radius_km` of a point; ordered by distance, each item with distance_km. */
  | { kind: "near"; latitude: string; longitude: string }
  /** The radius of `near`. */
  | { kind: "radius" };

export type Point = { latitude: number; longitude: number };

/** A parsed, resolved parameter: its match rule and its value (a province already resolved to its id). */
export type Criterion = { name: string; match: Match; value: unknown };

export type Hit = {
  part: number;
  row: number;
  /** List position (offset of the part + row). */
  position: number;
  /** For search: 0 exact name, 1 name starts with the query, 2 any other match. */
  rank: number;
  /** For near: the great-circle distance in km (not rounded). */
  distance: number;
};

type RowTest = (row: number) => boolean;

/** A column the criteria read: in `columns`, or (when it would be the same) the list item's field in `items`. */
function column(part: FindIndexPart, name: string): Column {
  const found = part.columns[name] ?? part.items[name];
  if (!found) throw new Error(`the ${part.resource} find index has no column ${name}`);
  return found;
}

/** A test for "the column's value at the row equals the value", comparing dictionary codes when it can. */
function equalsTest(col: Column, value: unknown): RowTest {
  if (Array.isArray(col)) return (row) => col[row] === value;
  if ("codes" in col) {
    const code = col.dict.indexOf(value as never);
    if (code < 0) return () => false;
    return (row) => col.codes[row] === code;
  }
  return () => false;
}

function includesTest(col: Column, value: unknown): RowTest {
  if (!Array.isArray(col) && "lists" in col) {
    const code = col.dict.indexOf(value as string);
    if (code < 0) return () => false;
    return (row) => (col.lists[row] ?? []).includes(code);
  }
  return (row) => {
    const list = columnValue(col, row);
    return Array.isArray(list) && list.includes(value);
  };
}

function openOnTest(col: Column, date: string): RowTest {
  return (row) => {
    const cycles = columnValue(col, row);
    if (!Array.isArray(cycles)) return false;
    return cycles.some((cycle) => {
      const [open, close] = cycle as [string | null, string];
      return (open === null || open <= date) && date <= close;
    });
  };
}

type Search = { test: RowTest; rank: (row: number) => number; rows: number[] | null };

const startsAWord = (text: unknown, word: string, spaced: string) => typeof text === "string" && (text.startsWith(word) || text.includes(spaced));

/**
 * For each query word, a test of whether a search column has a word starting with it at a row. A
 * dictionary column is tested once per distinct value, not once per row.
 */
function wordTests(col: Column, words: string[]): ((row: number) => boolean)[] {
  return words.map((word) => {
    const spaced = ` ${word}`;
    if (Array.isArray(col)) return (row: number) => startsAWord(col[row], word, spaced);
    if ("codes" in col) {
      const hits = col.dict.map((value) => startsAWord(value, word, spaced));
      return (row: number) => hits[col.codes[row] ?? -1] === true;
    }
    return () => false;
  });
}

function searchTest(part: FindIndexPart, columns: string[], words: string[]): Search {
  const texts = columns.map((name) => column(part, name));
  const phrase = words.join(" ");
  const name = texts[0] as Column;
  const rank = (row: number) => {
    const value = columnValue(name, row);
    return value === phrase ? 0 : typeof value === "string" && value.startsWith(phrase) ? 1 : 2;
  };
  // With the part's word index for these columns, the matching rows are read from it.
  const index = part.words;
  if (index !== undefined && index.columns.length === columns.length && index.columns.every((c, i) => c === columns[i])) {
    return { rows: rowsWithWords(index, words, part.rows), test: () => true, rank };
  }
  // Without one, every row is tested: perWord[w][c] says whether column c has a word starting with query word w.
  const perColumn = texts.map((col) => wordTests(col, words));
  const perWord = words.map((_, w) => perColumn.map((tests) => tests[w] as (row: number) => boolean));
  return { rows: null, test: (row) => perWord.every((tests) => tests.some((test) => test(row))), rank };
}

/** Every row of every part that matches all criteria, in the documented order. */
export function findRows(parts: FindIndexPart[], criteria: Criterion[], radiusKm: number): Hit[] {
  const hits: Hit[] = [];
  const near = criteria.find((c) => c.match.kind === "near");
  const searching = criteria.find((c) => c.match.kind === "search");
  parts.forEach((part, p) => {
    const tests: RowTest[] = [];
    let search: Search | null = null;
    let distanceAt: ((row: number) => number) | null = null;
    for (const { match, value } of criteria) {
      switch (match.kind) {
        case "equals":
        case "folded":
        case "province":
          tests.push(equalsTest(column(part, match.column), value));
          break;
        case "either": {
          const either = match.columns.map((name) => equalsTest(column(part, name), value));
          tests.push((row) => either.some((test) => test(row)));
          break;
        }
        case "includes":
          tests.push(includesTest(column(part, match.column), value));
          break;
        case "open-on":
          tests.push(openOnTest(column(part, match.column), value as string));
          break;
        case "search":
          search = searchTest(part, match.columns, value as string[]);
          break;
        case "near": {
          const { latitude, longitude } = value as Point;
          const lats = column(part, match.latitude);
          const lons = column(part, match.longitude);
          const box = boundingBox(latitude, longitude, radiusKm);
          distanceAt = (row) => {
            const lat = columnValue(lats, row);
            const lon = columnValue(lons, row);
            if (typeof lat !== "number" || typeof lon !== "number") return Infinity;
            if (lat < box.minLat || lat > box.maxLat || lon < box.minLon || lon > box.maxLon) return Infinity;
            return distanceKm(latitude, longitude, lat, lon);
          };
          break;
        }
        case "page":
        case "radius":
          break;
      }
    }
    const searchRows = search as Search | null;
    const distance = distanceAt as ((row: number) => number) | null;
    // The rows to look at: the word index's matches for a search, else every row.
    const candidates = searchRows?.rows ?? null;
    const count = candidates ? candidates.length : part.rows;
    rows: for (let i = 0; i < count; i++) {
      const row = candidates ? (candidates[i] as number) : i;
      for (const test of tests) if (!test(row)) continue rows;
      if (searchRows && !candidates && !searchRows.test(row)) continue;
      const d = distance ? distance(row) : 0;
      if (d > radiusKm) continue;
      hits.push({ part: p, row, position: part.offset + row, rank: searchRows ? searchRows.rank(row) : 0, distance: d });
    }
  });
  if (near) hits.sort((a, b) => a.distance - b.distance || a.position - b.position);
  else if (searching) hits.sort((a, b) => a.rank - b.rank || a.position - b.position);
  return hits;
}
