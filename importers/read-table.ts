// Reads the upstream spreadsheets (.xlsx) and CSV exports into plain string cells under their header row, so
// the importers see one shape whatever the publisher's format. Columns are found by header name (with
// aliases), never by position: the DBE and SAPO files move and rename columns between releases.
// Workbooks are read with exceljs (README "Dependencies" says why that library). It reads the Office Open
// XML formats only: a legacy Excel 97-2003 workbook (.xls, or any file that is an OLE2 compound document)
// is refused with a message that says how to convert it, and so are .xlsb and .ods.
import { readFile } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";

export type SourceRow = {
  /** 1-based line (CSV) or row (spreadsheet) number in the file, for reports. */
  line: number;
  cells: readonly string[];
  /**
   * Cells beyond (positive) or missing from (negative) the header's count. Non-zero means the row did not
   * parse into the header's shape, usually because an unquoted decimal comma split a value.
   */
  extraCells: number;
};

export type SourceTable = {
  file: string;
  /** Sheet name for workbooks, null for CSV. */
  sheet: string | null;
  headers: readonly string[];
  rows: SourceRow[];
};

/** Header text reduced to what survives every publisher's spelling: lower-case letters and digits. */
export function normaliseHeader(header: string): string {
  return header
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/**
 * An alias is a normalised header name (`gislongitude`) matched exactly, or a pattern tested against the
 * normalised header (`/^learners\d{4}$/`).
 */
export type HeaderAlias = string | RegExp;

/** Index of the first header matching the aliases, tried in the order given; undefined when none does. */
export function findColumn(headers: readonly string[], aliases: readonly HeaderAlias[]): number | undefined {
  const normalised = headers.map(normaliseHeader);
  for (const alias of aliases) {
    const index = typeof alias === "string" ? normalised.indexOf(normaliseHeader(alias)) : normalised.findIndex((header) => alias.test(header));
    if (index >= 0) return index;
  }
  return undefined;
}

/** Resolves a set of logical columns at once; `missing` lists the logical names not found. */
export function mapColumns<K extends string>(
  headers: readonly string[],
  aliases: Record<K, readonly HeaderAlias[]>,
): { columns: Partial<Record<K, number>>; missing: K[] } {
  const columns: Partial<Record<K, number>> = {};
  const missing: K[] = [];
  for (const key of Object.keys(aliases) as K[]) {
    const index = findColumn(headers, aliases[key]);
    if (index === undefined) missing.push(key);
    else columns[key] = index;
  }
  return { columns, missing };
}

export function cellAt(row: SourceRow, index: number | undefined): string {
  return index === undefined ? "" : (row.cells[index] ?? "");
}

/** Collapses runs of whitespace (including no-break spaces) to one space and trims. */
export function collapseSpaces(value: string): string {
  return value.replace(/[\s\u00a0]+/g, " ").trim();
}

const WORKBOOK_EXTENSIONS = new Set([".xlsx", ".xlsm"]);
const UNSUPPORTED_SPREADSHEETS = new Set([".xls", ".xlsb", ".ods"]);
/** The first bytes of a zip archive (every .xlsx) and of an OLE2 compound document (every .xls). */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((byte, i) => bytes[i] === byte);

export class UnreadableFileError extends Error {}

/** Why a legacy workbook is refused, and what to do instead (docs/national-datasets.md). */
const LEGACY_WORKBOOK_ADVICE =
  "a legacy Excel 97-2003 workbook, which the importers do not read: open it in a spreadsheet program and save it " +
  "as .xlsx or CSV (or run `soffice --headless --convert-to csv FILE`), then import that file";

/** Every sheet of a workbook, or the one table of a CSV. A file that cannot be parsed at all (an HTML
 * error page saved as .xlsx, a truncated download, a legacy .xls) is an UnreadableFileError naming the file. */
export async function readTables(file: string): Promise<SourceTable[]> {
  const bytes = await readFile(file);
  const extension = path.extname(file).toLowerCase();
  const name = path.basename(file);
  if (startsWith(bytes, OLE2_MAGIC) || extension === ".xls") {
    throw new UnreadableFileError(`${name} is ${LEGACY_WORKBOOK_ADVICE}`);
  }
  if (UNSUPPORTED_SPREADSHEETS.has(extension)) {
    throw new UnreadableFileError(`${name} is a ${extension} spreadsheet, which the importers do not read: save it as .xlsx or CSV`);
  }
  try {
    if (WORKBOOK_EXTENSIONS.has(extension) || startsWith(bytes, ZIP_MAGIC)) return await readWorkbook(file, bytes);
    return [readCsv(file, decodeText(bytes))];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnreadableFileError(`${name} cannot be read as a ${extension === "" ? "table" : extension} file (${reason})`);
  }
}

/** Every worksheet of an .xlsx workbook: the first non-blank row is the header, blank rows are skipped. */
async function readWorkbook(file: string, bytes: Uint8Array): Promise<SourceTable[]> {
  if (!startsWith(bytes, ZIP_MAGIC)) throw new Error("not an Office Open XML workbook (no zip signature)");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const tables: SourceTable[] = [];
  for (const worksheet of workbook.worksheets) {
    let headers: string[] | null = null;
    const rows: SourceRow[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      // row.values is 1-based and sparse: Array.from turns its holes into "".
      const cells = Array.from((row.values as unknown[]).slice(1), cellText);
      if (cells.every((cell) => cell.trim() === "")) return;
      if (headers === null) headers = cells.map(collapseSpaces);
      else rows.push({ line: rowNumber, cells, extraCells: 0 });
    });
    if (headers === null) continue;
    tables.push({ file, sheet: worksheet.name, headers, rows });
  }
  return tables;
}

/** A cell as text: numbers at full precision (never the display format's rounding), formulas as their
 * cached result, rich text and hyperlinks as their plain text, errors as blank. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "string") return cell;
  if (typeof cell === "number") {
    // Large integers (EMIS numbers, coordinates that lost their decimal point) must come out as digits.
    return Number.isInteger(cell) && Math.abs(cell) < 1e21 ? BigInt(cell).toString() : String(cell);
  }
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === "object") {
    const value = cell as { richText?: { text?: string }[]; text?: unknown; result?: unknown; error?: unknown; formula?: unknown };
    if (Array.isArray(value.richText)) return value.richText.map((run) => run.text ?? "").join("");
    if ("formula" in value || "sharedFormula" in value) return cellText(value.result);
    if ("error" in value) return "";
    if ("text" in value) return cellText(value.text);
  }
  return String(cell);
}

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what Excel's "CSV" export writes). */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** The delimiter that occurs most often in the header line: `;` (DBE national CSV, SAPO), `,` or tab. */
function detectDelimiter(text: string): string {
  const firstLine = text.replace(/^\ufeff/, "").split(/\r?\n/, 1)[0] ?? "";
  const candidates = [";", ",", "\t", "|"];
  let best = ",";
  let bestCount = 0;
  for (const candidate of candidates) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

export function readCsv(file: string, text: string): SourceTable {
  const delimiter = detectDelimiter(text);
  const records = parse(text, {
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    // Lines commented out by a republisher (`# 54;AFGHANISTAN EXT 25;...`); a `#` inside a value is data.
    comment: "#",
    comment_no_infix: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const [head, ...body] = records;
  const headers = (head?.record ?? []).map(collapseSpaces);
  const rows = body
    .filter(({ record }) => record.some((cell) => cell.trim() !== ""))
    .map(({ record, info }) => ({ line: info.lines, cells: record, extraCells: record.length - headers.length }));
  return { file, sheet: null, headers, rows };
}
