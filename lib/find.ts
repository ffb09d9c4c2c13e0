// Evaluating a list query against a find index (lib/find-index.ts): which rows match every criterion,
// in the documented order. Pure: the Worker (functions/find.ts) parses and resolves the parameters,
// loads the index parts and builds the page; the tests call this directly as well.
//
// Order: with `near`, nearest first; else with `q`, exact name first, then names that start with the
// query, then the other matches; ties (and plain filters) keep the list's own order.
import { columnValue, type Column, type FindIndexPart } from "./find-index.ts";
import { boundingBox, distanceKm } from "./geo.ts";
import type { Match, Point } from "../schema/query.ts";

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

function column(part: FindIndexPart, name: string): Column {
  const found = part.columns[name];
  if (!found) throw new Error(`the ${part.resource} find index has no column ${name}`);
  return found;
}

/** A test for "the column's value at the row equals one of these values", comparing dictionary codes when it can. */
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

type Search = { test: RowTest; rank: (row: number) => number };

function searchTest(part: FindIndexPart, columns: string[], words: string[]): Search {
  const texts = columns.map((name) => column(part, name));
  const spaced = words.map((w) => ` ${w}`);
  const phrase = words.join(" ");
  const textAt = (col: Column, row: number) => {
    const value = Array.isArray(col) ? col[row] : columnValue(col, row);
    return typeof value === "string" ? value : "";
  };
  return {
    test: (row) => {
      const values = texts.map((col) => textAt(col, row));
      return words.every((word, i) => values.some((text) => text.startsWith(word) || text.includes(spaced[i] as string)));
    },
    rank: (row) => {
      const name = textAt(texts[0] as Column, row);
      return name === phrase ? 0 : name.startsWith(phrase) ? 1 : 2;
    },
  };
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
    rows: for (let row = 0; row < part.rows; row++) {
      for (const test of tests) if (!test(row)) continue rows;
      if (searchRows && !searchRows.test(row)) continue;
      const d = distance ? distance(row) : 0;
      if (d > radiusKm) continue;
      hits.push({ part: p, row, position: part.offset + row, rank: searchRows ? searchRows.rank(row) : 0, distance: d });
    }
  });
  if (near) hits.sort((a, b) => a.distance - b.distance || a.position - b.position);
  else if (searching) hits.sort((a, b) => a.rank - b.rank || a.position - b.position);
  return hits;
}
