// Running an import: official files in, one of our tables out (sources/high-schools.csv, postal-codes.csv,
// nsc-results.csv by default), with its report. Used by `npm run import` (scripts/import.ts, the CLI), the
// nightly rebuild (nightly/) and the benchmarks. A file that cannot be read, or that lacks a required
// column, stops the import with the file and the column named, and nothing is written: the table already
// there stays as it was. Each table is written atomically, byte-identical for the same input and date.
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { writeFileAtomically } from "../lib/write-atomically.ts";
import { toCsv } from "./output.ts";
import { UnreadableFileError } from "./read-table.ts";
import { DBE_SOURCE_URL, HIGH_SCHOOL_COLUMNS, importSchoolFiles, type MasterlistIndex, type SchoolsReport } from "./schools.ts";
import { importPostalCodeFiles, POSTAL_CODE_COLUMNS, SAPO_SOURCE_URL, type PostalCodesReport } from "./postal-codes.ts";
import { importNscFiles, masterlistFromHighSchools, NSC_RESULT_COLUMNS, NSC_SOURCE_URL, readNscFile, type NscReport } from "./nsc.ts";
import { formatNscReport, formatPostalReport, formatSchoolsReport } from "./report.ts";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The committed tables live in sources/: an import refreshes them there unless told otherwise. */
export const DEFAULT_OUT_DIR = path.join(PROJECT_ROOT, "sources");

export type ImportOptions = {
  dataset: Dataset;
  inputs: string[];
  outDir: string;
  verifiedOn: string;
  /** nsc only: the masterlist files (or folders) to classify the report's schools against. */
  schools?: string[];
  /** false: the table is not written; the result's `write` writes it (so several imports land together or not at all). */
  write?: boolean;
};

/** A named input that does not exist (or a folder with nothing to import). */
export class InputError extends Error {}

/** Files that lack required columns: the import stops, nothing is written. */
export class UnusableFilesError extends UnreadableFileError {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

const TABLE_EXTENSIONS = new Set([".xlsx", ".xls", ".csv", ".txt", ".json"]);

/** Folders stand for the spreadsheets, CSV and JSON files directly inside them, in name order. */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (info === null) throw new InputError(`no such file or folder: ${input}`);
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    const names = (await readdir(input)).filter(
      (name) => !name.startsWith(".") && !name.startsWith("~$") && TABLE_EXTENSIONS.has(path.extname(name).toLowerCase()),
    );
    files.push(...names.sort().map((name) => path.join(input, name)));
  }
  return files;
}

export type ImportResult = {
  dataset: Dataset;
  outputFile: string;
  /** Writes the table (atomically); already done unless the import was run with `write: false`. */
  write: () => Promise<void>;
  rows: number;
  seconds: number;
  reportText: string;
  report: SchoolsReport | PostalCodesReport | NscReport;
};

/** What the schools import learnt about every NatEMIS number, for the NSC import that follows it. */
export type ImportContext = { masterlist?: MasterlistIndex };

/** What an importer read: the table's CSV text and rows, its report, and the report as printed. */
type Imported = { text: string; rows: number; report: ImportResult["report"]; format: (outputFile: string, seconds: number) => string };

/**
 * One national dataset's importer: everything the import command, the nightly rebuild and the benchmarks need to
 * know of it, so a new importer is one more entry in IMPORTERS (and its module) and they all take it.
 */
export type Importer = {
  /** The table it writes, in the output folder (sources/ by default). */
  table: string;
  /** The import command's rules for its arguments: exactly one file or any number; whether --schools goes with it. */
  arguments: { oneFile: boolean; takesSchools: boolean };
  /** Its files in an upstream folder laid out like ../shared/data (`folder`/) and in nightly/upstream.json (`config`);
   * `optional`: a run may have none, and the committed table is then kept. */
  upstream: { folder: string; config: "schools" | "postal_codes" | "nsc"; optional: boolean };
  /** What the import is called ("the postal code import"), what its rows are called, and its key in the nightly report. */
  name: string;
  rowsName: string;
  reportKey: string;
  /** Reads the files into the table; a file without the columns it needs stops the import (UnusableFilesError). */
  read: (files: string[], options: ImportOptions, context: ImportContext) => Promise<Imported>;
};

function unusable(files: readonly { file: string; sheet: string | null; missingColumns: string[]; usable: boolean }[]): string[] {
  return files
    .filter((f) => !f.usable)
    .map((f) => `${f.sheet === null ? f.file : `${f.file} [${f.sheet}]`} has no column for ${f.missingColumns.join(", ")}`);
}

async function highSchoolsTable(outDir: string): Promise<MasterlistIndex | undefined> {
  const file = path.join(outDir, IMPORTERS.schools.table);
  if (!existsSync(file)) return undefined;
  const rows = parse(await readFile(file, "utf8"), { columns: true, skip_empty_lines: true }) as { emis_number: string; province_id: string }[];
  return masterlistFromHighSchools(rows);
}

/** The table of a read, with the source URL and the verified_on date on every row. */
function tableText(columns: readonly string[], rows: readonly Record<string, unknown>[], sourceUrl: string, options: ImportOptions): string {
  return toCsv(
    columns,
    rows.map((row) => ({ ...row, source_url: sourceUrl, verified_on: options.verifiedOn })),
  );
}

function refuseUnusable(report: { files: Parameters<typeof unusable>[0] }): void {
  const problems = unusable(report.files);
  if (problems.length > 0) throw new UnusableFilesError(problems);
}

/** The masterlist the NSC report's schools are classified against: --schools, the schools import of this run, or the table. */
async function masterlistFor(options: ImportOptions, context: ImportContext) {
  if (options.schools && options.schools.length > 0) {
    const schoolFiles = await expandInputs(options.schools);
    return { index: (await importSchoolFiles(schoolFiles)).masterlist, against: "masterlist" as const };
  }
  if (context.masterlist) return { index: context.masterlist, against: "masterlist" as const };
  const table = await highSchoolsTable(options.outDir);
  return table ? { index: table, against: "high-schools table" as const } : undefined;
}

/** The importers, in the order a national run imports them (the schools first: the NSC import classifies against them). */
export const IMPORTERS = {
  schools: {
    table: "high-schools.csv",
    arguments: { oneFile: false, takesSchools: false },
    upstream: { folder: "schools", config: "schools", optional: false },
    name: "schools",
    rowsName: "schools",
    reportKey: "schools",
    read: async (files, options, context) => {
      const { rows, report, masterlist } = await importSchoolFiles(files);
      refuseUnusable(report);
      context.masterlist = masterlist;
      const text = tableText(HIGH_SCHOOL_COLUMNS, rows, DBE_SOURCE_URL, options);
      return { text, rows: rows.length, report, format: (file, seconds) => formatSchoolsReport(report, file, seconds) };
    },
  },
  "postal-codes": {
    table: "postal-codes.csv",
    arguments: { oneFile: true, takesSchools: false },
    upstream: { folder: "postal-codes", config: "postal_codes", optional: false },
    name: "postal code",
    rowsName: "postal codes",
    reportKey: "postal_codes",
    read: async (files, options) => {
      const { rows, report } = await importPostalCodeFiles(files);
      refuseUnusable(report);
      const text = tableText(POSTAL_CODE_COLUMNS, rows, SAPO_SOURCE_URL, options);
      return { text, rows: rows.length, report, format: (file, seconds) => formatPostalReport(report, file, seconds) };
    },
  },
  nsc: {
    table: "nsc-results.csv",
    arguments: { oneFile: false, takesSchools: true },
    upstream: { folder: "nsc", config: "nsc", optional: true },
    name: "NSC results",
    rowsName: "NSC school-years",
    reportKey: "nsc_results",
    read: async (files, options, context) => {
      const nscFiles = [];
      for (const file of files) nscFiles.push(...(await readNscFile(file)));
      const { rows, report } = importNscFiles(nscFiles, await masterlistFor(options, context));
      refuseUnusable(report);
      const text = tableText(NSC_RESULT_COLUMNS, rows, NSC_SOURCE_URL, options);
      return { text, rows: rows.length, report, format: (file, seconds) => formatNscReport(report, file, seconds) };
    },
  },
} satisfies Record<string, Importer>;

export type Dataset = keyof typeof IMPORTERS;
export const DATASETS = Object.keys(IMPORTERS) as Dataset[];

/** Runs one import; `context` carries the schools import's masterlist to the NSC import in the same run. */
export async function runImport(options: ImportOptions, context: ImportContext = {}): Promise<ImportResult> {
  const started = performance.now();
  const files = await expandInputs(options.inputs);
  if (files.length === 0) throw new InputError(`no .xlsx, .csv, .txt or .json file in ${options.inputs.join(", ")}`);
  const importer: Importer = IMPORTERS[options.dataset];
  const outputFile = path.join(options.outDir, importer.table);
  const { text, rows, report, format } = await importer.read(files, options, context);
  let written = false;
  const write = async () => {
    if (written) return;
    await writeFileAtomically(outputFile, text);
    written = true;
  };
  if (options.write !== false) await write();
  const seconds = (performance.now() - started) / 1000;
  return { dataset: options.dataset, outputFile, write, rows, seconds, reportText: format(outputFile, seconds), report };
}

/** The national files of one run, by dataset: the masterlist workbooks, the postal code list, the NSC report. */
export type NationalFiles = Record<Dataset, string[]>;
/** An optional dataset (the NSC report) is null when the run had none of its files: its table is left as it is. */
export type NationalImport = Record<Dataset, ImportResult | null>;

/** Every import into outDir, in the order of IMPORTERS (the schools first, so the NSC report is classified against
 * their masterlist). The tables are written only when all succeed: a failure leaves every table as it was. */
export async function importNational(files: NationalFiles, outDir: string, verifiedOn: string): Promise<NationalImport> {
  const context: ImportContext = {};
  const results = {} as NationalImport;
  for (const dataset of DATASETS) {
    const inputs = files[dataset];
    const skipped = inputs.length === 0 && IMPORTERS[dataset].upstream.optional;
    results[dataset] = skipped ? null : await runImport({ dataset, inputs, outDir, verifiedOn, write: false }, context);
  }
  for (const result of Object.values(results)) await result?.write();
  return results;
}
