// A fast reader for the plain CSV our tables are written in, used before csv-parse (build/load.ts): csv-parse
// reads byte by byte and builds an info object per record, 15% of a build's CPU profile (issue 31). This
// reader takes only the common shape (LF line ends, fields either unquoted without quotes or quoted without
// line breaks) and gives up (null) on anything else, so csv-parse still reads every other file and words every
// syntax error. Where it answers, it answers exactly what csv-parse does with the options build/load.ts passes
// ({ bom, info, skip_empty_lines, relax_column_count }): the records, and the line each ends on
// (test/node/csv.test.ts compares the two on generated text and on every committed table).

export type CsvRecord = { record: string[]; info: { lines: number } };

const QUOTE = 34;
const COMMA = 44;
const LF = 10;

export function parsePlainCsv(input: string): CsvRecord[] | null {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.includes("\r")) return null;
  const n = text.length;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < n) {
    if (text.charCodeAt(i) === LF) {
      line++;
      i++;
      continue;
    }
    const record: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let value = "";
        let from = i + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote === -1) return null;
          const part = text.slice(from, quote);
          if (part.includes("\n")) return null;
          value += part;
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += '"';
            from = quote + 2;
            continue;
          }
          i = quote + 1;
          break;
        }
        record.push(value);
        const next = text.charCodeAt(i);
        if (next === COMMA) {
          i++;
          continue;
        }
        if (next === LF || i >= n) break;
        return null;
      }
      let end = i;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === COMMA || c === LF) break;
        if (c === QUOTE) return null;
        end++;
      }
      record.push(text.slice(i, end));
      i = end;
      if (text.charCodeAt(i) === COMMA) {
        i++;
        continue;
      }
      break;
    }
    records.push({ record, info: { lines: line } });
    if (i < n) {
      i++;
      line++;
    }
  }
  return records;
}
