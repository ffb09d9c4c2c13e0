// The find index of a paginated list: the file format the build writes (build/find-index.ts) and the
// Worker reads (functions/find.ts), described for people in docs/find.md.
//
// One index per list, in parts of at most FIND_ROWS_PER_PART rows (one part for every list of the
// national data). A part is columnar: every column is an array over the part's rows, in the list's own
// order, so row r of part p is the list record at position `offset + r`.
//   items    the list items themselves, one column per field, put back together in `item_keys` order:
//            exactly the objects of the list chunks, so a filtered page shows the same records
//   columns  what the filters, the search and the distance need that a list item does not hold as
//            such (a school's district and coordinates, the subjects of a qualification's requirements,
//            folded names, ...); a column the filters read that would equal the list item's field of
//            the same name is not repeated: readers look in `columns`, then in `items`
//   words    the word index of the list's name search
// A column with few distinct values is dictionary-encoded, which keeps the files small.

/** Rows per index part: a multiple of the list chunk size, so parts and chunks line up. */
export const FIND_ROWS_PER_PART = 25_000;

type Scalar = string | number | boolean | null;

export type Column =
  /** One value per row. */
  | unknown[]
  /** Dictionary: the row's value is dict[codes[row]]. */
  | { dict: Scalar[]; codes: number[] }
  /** A list of dictionary values per row (e.g. the subject slugs of a qualification's requirements). */
  | { dict: string[]; lists: number[][] };

/**
 * The words of the search columns, for name search without reading every row: `vocab` holds every
 * distinct word, sorted by UTF-16 code units (so the words that start with a prefix are one run of it),
 * and the rows holding vocab[i] in any of the columns are rows[offsets[i]] to rows[offsets[i + 1] - 1].
 */
export type WordIndex = { columns: string[]; vocab: string[]; offsets: number[]; rows: number[] };

export type FindIndexPart = {
  resource: string;
  /** List position of the part's first row. */
  offset: number;
  rows: number;
  /** The list item's fields, in the order the list chunks write them. */
  item_keys: string[];
  items: Record<string, Column>;
  columns: Record<string, Column>;
  /** Lists with a name search: the word index of its columns. */
  words?: WordIndex;
};

const isScalar = (value: unknown): value is Scalar =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** Dictionary-encodes a column when it has few distinct scalar values (at most a quarter of the rows). */
export function encodeColumn(values: unknown[]): Column {
  if (values.length < 8 || !values.every(isScalar)) return values;
  const dict: Scalar[] = [];
  const codeOf = new Map<Scalar, number>();
  const codes: number[] = [];
  for (const value of values as Scalar[]) {
    let code = codeOf.get(value);
    if (code === undefined) {
      code = dict.length;
      dict.push(value);
      codeOf.set(value, code);
      if (dict.length > values.length / 4) return values;
    }
    codes.push(code);
  }
  return { dict, codes };
}

/** A list of strings per row, dictionary-encoded. */
export function encodeLists(lists: string[][]): Column {
  const dict: string[] = [];
  const codeOf = new Map<string, number>();
  const encoded = lists.map((list) =>
    list.map((value) => {
      let code = codeOf.get(value);
      if (code === undefined) {
        code = dict.length;
        dict.push(value);
        codeOf.set(value, code);
      }
      return code;
    }),
  );
  return { dict, lists: encoded };
}

/** The value of a column at a row (for a list column: the row's list of values). */
export function columnValue(column: Column, row: number): unknown {
  if (Array.isArray(column)) return column[row];
  if ("codes" in column) return column.dict[column.codes[row] ?? -1] ?? null;
  return (column.lists[row] ?? []).map((code) => column.dict[code]);
}

/** The list item at a row, with its fields in the list's order. */
export function itemAt(part: FindIndexPart, row: number): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const key of part.item_keys) {
    const column = part.items[key];
    item[key] = column === undefined ? null : columnValue(column, row);
  }
  return item;
}

/** The word index of search columns (each value a searchKey: folded words joined by single spaces). */
export function buildWordIndex(columns: string[], values: unknown[][]): WordIndex {
  // Rows are met in increasing order within a column, so each word's list is sorted and free of repeats as long as
  // one column is read; a second column may add earlier rows, and those lists are sorted and deduplicated at the end.
  const rowsOf = new Map<string, number[]>();
  for (const column of values) {
    column.forEach((value, row) => {
      if (typeof value !== "string") return;
      for (const word of value.split(" ")) {
        if (word === "") continue;
        const rows = rowsOf.get(word);
        if (!rows) rowsOf.set(word, [row]);
        else if (rows.at(-1) !== row) rows.push(row);
      }
    });
  }
  const vocab = [...rowsOf.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const offsets = [0];
  const rows: number[] = [];
  for (const word of vocab) {
    const found = rowsOf.get(word) ?? [];
    if (values.length > 1) found.sort((a, b) => a - b);
    for (const [i, row] of found.entries()) if (i === 0 || found[i - 1] !== row) rows.push(row);
    offsets.push(rows.length);
  }
  return { columns, vocab, offsets, rows };
}

/** The first index of `vocab` whose word is not below `word` (binary search). */
function lowerBound(vocab: string[], word: string): number {
  let [lo, hi] = [0, vocab.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((vocab[mid] as string) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows (ascending) where every query word starts a word of the index's columns. */
export function rowsWithWords(index: WordIndex, words: string[], rowCount: number): number[] {
  // matched[row] counts the query words matched so far, each at most once.
  const matched = new Uint8Array(rowCount);
  const found: number[] = [];
  words.forEach((word, k) => {
    for (let i = lowerBound(index.vocab, word); i < index.vocab.length && (index.vocab[i] as string).startsWith(word); i++) {
      for (let j = index.offsets[i] as number; j < (index.offsets[i + 1] as number); j++) {
        const row = index.rows[j] as number;
        if (matched[row] !== k) continue;
        matched[row] = k + 1;
        if (k === words.length - 1) found.push(row);
      }
    }
  });
  return found.sort((a, b) => a - b);
}
