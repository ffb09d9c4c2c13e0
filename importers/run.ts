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
import { toCsv, writeFileAtomically } from "./output.ts";
import { UnreadableFileError } from "./read-table.ts";
import { DBE_SOURCE_URL, HIGH_SCHOOL_COLUMNS, importSchoolFiles, type MasterlistIndex, type SchoolsReport } from "./schools.ts";
import { importPostalCodeFiles, POSTAL_CODE_COLUMNS, SAPO_SOURCE_URL, type PostalCodesReport } from "./postal-codes.ts";
import { importNscFiles, masterlistFromHighSchools, NSC_RESULT_COLUMNS, NSC_SOURCE_URL, readNscFile, type NscReport } from "./nsc.ts";
import { formatNscReport, formatPostalReport, formatSchoolsReport } from "./report.ts";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The committed tables live in sources/: an import refreshes them there unless told otherwise. */
export const DEFAULT_OUT_DIR = path.join(PROJECT_ROOT, "sources");

export const DATASETS = ["schools", "postal-codes", "nsc"] as const;
export type Dataset = (typeof DATASETS)[number];

/** The table each import writes, in the output folder. */
const OUTPUT_FILES: Record<Dataset, string> = {
  schools: "high-schools.csv",
  "postal-codes": "postal-codes.csv",
  nsc: "nsc-results.csv",
};

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

function unusable(files: readonly { file: string; sheet: string | null; missingColumns: string[]; usable: boolean }[]): string[] {
  return files
    .filter((f) => !f.usable)
    .map((f) => `${f.sheet === null ? f.file : `${f.file} [${f.sheet}]`} has no column for ${f.missingColumns.join(", ")}`);
}

async function highSchoolsTable(outDir: string): Promise<MasterlistIndex | undefined> {
  const file = path.join(outDir, OUTPUT_FILES.schools);
  if (!existsSync(file)) return undefined;
  const rows = parse(await readFile(file, "utf8"), { columns: true, skip_empty_lines: true }) as { emis_number: string; province_id: string }[];
  return masterlistFromHighSchools(rows);
}

/** Runs one import; `context` carries the schools import's masterlist to the NSC import in the same run. */
export async function runImport(options: ImportOptions, context: ImportContext = {}): Promise<ImportResult> {
  const started = performance.now();
  const files = await expandInputs(options.inputs);
  if (files.length === 0) throw new InputError(`no .xlsx, .csv, .txt or .json file in ${options.inputs.join(", ")}`);
  const outputFile = path.join(options.outDir, OUTPUT_FILES[options.dataset]);
  const provenance = { verified_on: options.verifiedOn };
  const finish = async (text: string, rows: number, report: ImportResult["report"], format: (seconds: number) => string): Promise<ImportResult> => {
    let written = false;
    const write = async () => {
      if (written) return;
      await writeFileAtomically(outputFile, text);
      written = true;
    };
    if (options.write !== false) await write();
    const seconds = (performance.now() - started) / 1000;
    return { dataset: options.dataset, outputFile, write, rows, seconds, reportText: format(seconds), report };
  };

  if (options.dataset === "schools") {
    const { rows, report, masterlist } = await importSchoolFiles(files);
    const problems = unusable(report.files);
    if (problems.length > 0) throw new UnusableFilesError(problems);
    context.masterlist = masterlist;
    const text = toCsv(
      HIGH_SCHOOL_COLUMNS,
      rows.map((row) => ({ ...row, source_url: DBE_SOURCE_URL, ...provenance })),
    );
    return finish(text, rows.length, report, (seconds) => formatSchoolsReport(report, outputFile, seconds));
  }
  if (options.dataset === "postal-codes") {
    const { rows, report } = await importPostalCodeFiles(files);
    const problems = unusable(report.files);
    if (problems.length > 0) throw new UnusableFilesError(problems);
    const text = toCsv(
      POSTAL_CODE_COLUMNS,
      rows.map((row) => ({ ...row, source_url: SAPO_SOURCE_URL, ...provenance })),
    );
    return finish(text, rows.length, report, (seconds) => formatPostalReport(report, outputFile, seconds));
  }

  const nscFiles = [];
  for (const file of files) nscFiles.push(...(await readNscFile(file)));
  let masterlist: { index: MasterlistIndex; against: "masterlist" | "high-schools table" } | undefined;
  if (options.schools && options.schools.length > 0) {
    const schoolFiles = await expandInputs(options.schools);
    masterlist = { index: (await importSchoolFiles(schoolFiles)).masterlist, against: "masterlist" };
  } else if (context.masterlist) {
    masterlist = { index: context.masterlist, against: "masterlist" };
  } else {
    const table = await highSchoolsTable(options.outDir);
    if (table) masterlist = { index: table, against: "high-schools table" };
  }
  const { rows, report } = importNscFiles(nscFiles, masterlist);
  const problems = unusable(report.files);
  if (problems.length > 0) throw new UnusableFilesError(problems);
  const text = toCsv(
    NSC_RESULT_COLUMNS,
    rows.map((row) => ({ ...row, source_url: NSC_SOURCE_URL, ...provenance })),
  );
  return finish(text, rows.length, report, (seconds) => formatNscReport(report, outputFile, seconds));
}

/** The national files of one run: the masterlist workbooks, the postal code list, the NSC report. */
export type NationalFiles = { schools: string[]; postalCodes: string; nsc: string[] };
/** `nsc` is null when the run had no NSC report file: the NSC table already there is left as it is. */
export type NationalImport = { schools: ImportResult; postalCodes: ImportResult; nsc: ImportResult | null };

/** All three imports into outDir, the schools first so the NSC report is classified against their masterlist.
 * The tables are written only when all three imports succeed: a failure leaves every table as it was. */
export async function importNational(files: NationalFiles, outDir: string, verifiedOn: string): Promise<NationalImport> {
  const context: ImportContext = {};
  const schools = await runImport({ dataset: "schools", inputs: files.schools, outDir, verifiedOn, write: false }, context);
  const postalCodes = await runImport({ dataset: "postal-codes", inputs: [files.postalCodes], outDir, verifiedOn, write: false });
  const nsc = files.nsc.length === 0 ? null : await runImport({ dataset: "nsc", inputs: files.nsc, outDir, verifiedOn, write: false }, context);
  for (const result of [schools, postalCodes, nsc]) await result?.write();
  return { schools, postalCodes, nsc };
}
