// Stage 1, load: read every file of every table (build/csv.ts, or csv-parse for anything else). Cells stay strings; typing is the
// validate stage's job. A file that is not well-formed CSV becomes a problem, and the other files still load.
// Before any parsing, the bytes themselves: a file must be a regular file inside its folder (a symbolic link
// out of sources/ is refused unread), and valid UTF-8 (the first bad byte is named by line and column, never
// replaced by U+FFFD); after it, every cell must be free of control characters and at most MAX_CELL_LENGTH long.
import { isUtf8 } from "node:buffer";
import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import { parse } from "csv-parse/sync";
import { parsePlainCsv } from "./csv.ts";
import type { TableDefinition } from "./tables/define.ts";
import type { Place, Problem } from "./problems.ts";

type RawRow = Place & { cells: Record<string, string> };

/** The longest cell accepted, in characters: far above the longest real one (an evidence quote of about 1,600). */
export const MAX_CELL_LENGTH = 10_000;

/** C0 controls (tab, CR and LF included: no cell holds a line break), DEL and the C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same, but for the line feeds that end a file's lines
const CONTROL_CHARACTER_BESIDES_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
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
  // Every table's files are found and read at once, and parsed in order as their bytes arrive: one table's reads on
  // the thread pool while the one before is parsed (read one after another, the build sat idle for a fifth of the
  // stage). The reads are the only part done early; problems come in the same order as before.
  const reads = definitions.map((definition) => readTable(definition, folders));
  // Awaited in turn below; a read that fails before its turn must not count as an unhandled rejection meanwhile.
  for (const read of reads) read.catch(() => {});
  for (const [at, definition] of definitions.entries()) {
    const { files } = await (reads[at] as Promise<TableFiles>);
    const rows: RawRow[] = [];
    let unreadable = false;
    for (const { file, outside, bytes } of files) {
      const shown = path.relative(folders.root, file) || file;
      const before = problems.length;
      if (outside) problems.push({ file: shown, line: 1, expected: outside, fatal: true });
      // A national table has hundreds of thousands of rows: too many to spread into push().
      else for (const row of loadFile(await (bytes as Promise<Buffer>), shown, definition, problems)) rows.push(row);
      if (problems.slice(before).some((p) => p.fatal)) unreadable = true;
    }
    tables.set(definition.name, { definition, files: files.map((f) => path.relative(folders.root, f.file)), rows, unreadable });
  }
  return { tables, problems };
}

/** A table's files, each with its bytes being read, or why it is refused unread (outsideOf). */
type TableFiles = { files: { file: string; outside: string | null; bytes?: Promise<Buffer> }[] };

async function readTable(definition: TableDefinition, folders: SourceFolders): Promise<TableFiles> {
  const overrides = definition.imported && folders.imported !== undefined ? await filesMatching(definition.patterns, folders.imported) : [];
  const files = overrides.length > 0 ? overrides : await filesMatching(definition.patterns, folders.sources);
  const folder = overrides.length > 0 ? (folders.imported as string) : folders.sources;
  return {
    files: await Promise.all(
      files.map(async (file) => {
        const outside = await outsideOf(folder, file);
        if (outside) return { file, outside };
        const bytes = readFile(file);
        bytes.catch(() => {});
        return { file, outside, bytes };
      }),
    ),
  };
}

/** The entries matching `patterns` in `folder`, sorted: files, and symbolic links of any kind (so that they are
 * refused by name rather than silently skipped); folders behind a symbolic link are not entered. */
async function filesMatching(patterns: string[], folder: string): Promise<string[]> {
  const entries = await fg(patterns, { cwd: folder, absolute: true, onlyFiles: false, markDirectories: true, followSymbolicLinks: false });
  return entries.filter((entry) => !entry.endsWith("/")).sort();
}

/**
 * Why `file` may not be read as part of `folder`: a symbolic link, or a path that resolves outside the folder.
 * Nothing of such a file is read (a link to /etc/passwd once had its first line printed in the error output).
 */
async function outsideOf(folder: string, file: string): Promise<string | null> {
  if ((await lstat(file)).isSymbolicLink()) return "a regular file, not a symbolic link (the build reads only files inside its folders)";
  const [root, real] = await Promise.all([realpath(folder), realpath(file)]);
  if (real !== root && !real.startsWith(root + path.sep)) return "a file inside its folder (this path leads out of it through a symbolic link)";
  return null;
}

/** Where the first byte sequence that is not UTF-8 starts (its byte offset), or -1 when all of it is UTF-8. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

/** The text of a file's bytes, or the problem naming the line and column of its first byte that is not UTF-8. */
function decodeUtf8(bytes: Uint8Array, shown: string): string | Problem {
  // Node's own check first (native, a tenth of the time); the byte-by-byte walk only to name the bad byte.
  if (isUtf8(bytes)) return new TextDecoder("utf-8").decode(bytes);
  const bad = firstInvalidUtf8(bytes);
  if (bad === -1) return new TextDecoder("utf-8").decode(bytes);
  const before = new TextDecoder("utf-8").decode(bytes.subarray(0, bad));
  const lines = before.split("\n");
  const column = [...(lines.at(-1) ?? "")].length + 1;
  const byte = (bytes[bad] as number).toString(16).toUpperCase().padStart(2, "0");
  return {
    file: shown,
    line: lines.length,
    expected: `UTF-8 text: column ${column} (character ${column} of the line) holds the byte 0x${byte}, which is not UTF-8 (save the file as UTF-8; a Latin-1 or Windows-1252 export is the usual cause)`,
    fatal: true,
  };
}

/** The header's cells as csv-parse reads its first record (for naming the column of a syntax error). */
function headerOf(text: string): string[] {
  try {
    const [first] = parse(text, { bom: true, to_line: 1, relax_column_count: true, relax_quotes: true }) as string[][];
    return (first ?? []).map((c) => c.trim());
  } catch {
    return [];
  }
}

function loadFile(file: Buffer, shown: string, definition: TableDefinition, problems: Problem[]): RawRow[] {
  const decoded = decodeUtf8(file, shown);
  if (typeof decoded !== "string") {
    problems.push(decoded);
    return [];
  }
  const text = decoded;
  let records: { record: string[]; info: { lines: number } }[];
  let controlFree = false;
  try {
    // The plain shape every committed table has is read by build/csv.ts; anything else (and every error) by csv-parse.
    const plain = parsePlainCsv(text);
    records = plain ?? (parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as never);
    // A plain file's cells hold no line break: where the file has no other control character, no cell has one.
    controlFree = plain !== null && !CONTROL_CHARACTER_BESIDES_LF.test(text);
  } catch (error) {
    const e = error as { code?: string; lines?: number; column?: number; message: string };
    // csv-parse reports an unclosed quote where the file ends; the line to fix is the one where it opened.
    const line = e.code === "CSV_QUOTE_NOT_CLOSED" ? (unclosedQuoteLine(text) ?? e.lines ?? 1) : (e.lines ?? 1);
    // csv-parse counts the cell it was reading (from 0): name that column of the header.
    const column = e.code !== "CSV_QUOTE_NOT_CLOSED" && typeof e.column === "number" ? headerOf(text)[e.column] : undefined;
    problems.push({ file: shown, line, ...(column ? { column } : {}), expected: `well-formed CSV (${e.message})`, fatal: true });
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
    let clean = true;
    columns.forEach((column, i) => {
      const cell = record[i] ?? "";
      const problem = cellProblem(cell, controlFree);
      if (problem) {
        clean = false;
        problems.push({ file: shown, line: info.lines, column, value: cell.length > 80 ? `${cell.slice(0, 80)}…` : cell, expected: problem });
      }
      cells[column] = cell;
    });
    if (clean) rows.push({ file: shown, line: info.lines, cells });
  }
  return rows;
}

/** Why a cell cannot be published as it is, or null: a control character (a NUL kept in a name), or a length
 * past MAX_CELL_LENGTH (a 10 MB cell once grew dist/ from 29 MB to 102 MB). */
function cellProblem(cell: string, controlFree: boolean): string | null {
  const control = controlFree ? null : CONTROL_CHARACTER.exec(cell);
  if (control) {
    const code = (control[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    return `text without control characters (U+${code} at character ${control.index + 1}; a line break or tab inside a cell included)`;
  }
  if (cell.length > MAX_CELL_LENGTH)
    return `at most ${MAX_CELL_LENGTH.toLocaleString("en")} characters in a cell, not ${cell.length.toLocaleString("en")}`;
  return null;
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
