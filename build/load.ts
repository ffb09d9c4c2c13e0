// Stage 1, load: read every file of every table with csv-parse. Cells stay strings; typing is the
// validate stage's job. A file that is not well-formed CSV becomes a problem, and the other files still load.
import { readFile } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import { parse } from "csv-parse/sync";
import type { TableDefinition } from "./tables/define.ts";
import type { Place, Problem } from "./problems.ts";

type RawRow = Place & { cells: Record<string, string> };
export type RawTable = {
  definition: TableDefinition;
  files: string[];
  rows: RawRow[];
  /** A file of the table could not be read as CSV (or has the wrong header): its rows are missing, so
   * every check that needs the whole table (keys, references, links) would only report knock-on problems. */
  unreadable: boolean;
};

export type SourceFolders = {
  /** The committed tables. */
  sources: string;
  /** An override folder for the national (imported) tables: a table whose file is here is read from here
   * instead of from sources (the nightly rebuild builds its fresh import this way). */
  imported?: string;
  /** Paths in reports are shown relative to this folder. */
  root: string;
};

export async function loadTables(
  definitions: TableDefinition[],
  folders: SourceFolders,
): Promise<{ tables: Map<string, RawTable>; problems: Problem[] }> {
  const problems: Problem[] = [];
  const tables = new Map<string, RawTable>();
  for (const definition of definitions) {
    const overrides =
      definition.imported && folders.imported !== undefined
        ? (await fg(definition.patterns, { cwd: folders.imported, absolute: true, onlyFiles: true })).sort()
        : [];
    const files =
      overrides.length > 0 ? overrides : (await fg(definition.patterns, { cwd: folders.sources, absolute: true, onlyFiles: true })).sort();
    const rows: RawRow[] = [];
    let unreadable = false;
    for (const file of files) {
      const shown = path.relative(folders.root, file) || file;
      const before = problems.length;
      // A national table has hundreds of thousands of rows: too many to spread into push().
      for (const row of await loadFile(file, shown, definition, problems)) rows.push(row);
      if (problems.slice(before).some((p) => p.fatal)) unreadable = true;
    }
    tables.set(definition.name, { definition, files: files.map((f) => path.relative(folders.root, f)), rows, unreadable });
  }
  return { tables, problems };
}

async function loadFile(file: string, shown: string, definition: TableDefinition, problems: Problem[]): Promise<RawRow[]> {
  const text = await readFile(file, "utf8");
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as never;
  } catch (error) {
    const e = error as { code?: string; lines?: number; message: string };
    // csv-parse reports an unclosed quote where the file ends; the line to fix is the one where it opened.
    const line = e.code === "CSV_QUOTE_NOT_CLOSED" ? (unclosedQuoteLine(text) ?? e.lines ?? 1) : (e.lines ?? 1);
    problems.push({ file: shown, line, expected: `well-formed CSV (${e.message})`, fatal: true });
    return [];
  }
  const [header, ...body] = records;
  if (!header) {
    problems.push({ file: shown, line: 1, expected: `a header row: ${Object.keys(definition.row.shape).join(",")}`, fatal: true });
    return [];
  }
  const columns = header.record.map((c) => c.trim());
  const expectedColumns = Object.keys(definition.row.shape);
  const missing = expectedColumns.filter((c) => !columns.includes(c));
  const unknown = columns.filter((c) => !expectedColumns.includes(c));
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (missing.length > 0 || unknown.length > 0 || repeated.length > 0) {
    const parts = [
      missing.length ? `missing column(s) ${missing.join(", ")}` : "",
      unknown.length ? `unknown column(s) ${unknown.join(", ")}` : "",
      repeated.length ? `repeated column(s) ${repeated.join(", ")}` : "",
    ].filter(Boolean);
    problems.push({
      file: shown,
      line: header.info.lines,
      value: columns.join(","),
      expected: `the header ${expectedColumns.join(",")} (${parts.join("; ")})`,
      fatal: true,
    });
    return [];
  }
  const rows: RawRow[] = [];
  for (const { record, info } of body) {
    if (record.length !== columns.length) {
      problems.push({
        file: shown,
        line: info.lines,
        value: record.join(","),
        expected: `${columns.length} cells as in the header, found ${record.length} (quote cells that contain commas)`,
      });
      continue;
    }
    const cells: Record<string, string> = {};
    columns.forEach((column, i) => {
      cells[column] = record[i] ?? "";
    });
    rows.push({ file: shown, line: info.lines, cells });
  }
  return rows;
}

/** The line on which the quote that is still open at the end of the text opened, or null if none is. */
function unclosedQuoteLine(text: string): number | null {
  let line = 1;
  let openedOn: number | null = null;
  for (const char of text) {
    if (char === "\n") line++;
    // A doubled quote inside a quoted cell closes and reopens it: the state comes out the same.
    else if (char === '"') openedOn = openedOn === null ? line : null;
  }
  return openedOn;
}
