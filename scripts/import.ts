// `npm run import -- schools <files or folders...>` and `npm run import -- postal-codes <file>`: turn the
// official national datasets into sources/imported/*.csv (git-ignored), which the build reads with the
// committed tables. Options: --out <dir> (default sources/imported), --verified-on YYYY-MM-DD (default:
// today in Johannesburg; set it to make a re-import byte-identical).
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { importSchoolFiles, DBE_SOURCE_URL, HIGH_SCHOOL_COLUMNS, type SchoolsReport } from "../importers/schools.ts";
import {
  importPostalCodeFiles,
  POSTAL_CODE_COLUMNS,
  SAPO_SOURCE_URL,
  type PostalCodesReport,
} from "../importers/postal-codes.ts";
import { REPAIRED_OUTCOMES, NULLED_OUTCOMES } from "../importers/coordinates.ts";
import { toCsv, writeFileAtomically } from "../importers/output.ts";
import { todayInJohannesburg } from "../lib/dates.ts";
import { isRealDate } from "../build/tables/cells.ts";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_OUT_DIR = path.join(PROJECT_ROOT, "sources", "imported");

const USAGE = `usage:
  npm run import -- schools <file-or-folder...> [--out <dir>] [--verified-on YYYY-MM-DD]
  npm run import -- postal-codes <file> [--out <dir>] [--verified-on YYYY-MM-DD]

schools:       DBE EMIS masterlist: the provincial .xlsx workbooks and/or the national ;-separated CSV
               (${DBE_SOURCE_URL})
postal-codes:  SAPO postal code list, .xls or CSV (${SAPO_SOURCE_URL})
Output: <out>/high-schools.csv or <out>/postal-codes.csv (default out: sources/imported).`;

export class UsageError extends Error {}

export type ImportOptions = {
  dataset: "schools" | "postal-codes";
  inputs: string[];
  outDir: string;
  verifiedOn: string;
};

export function parseArguments(argv: readonly string[], today: string): ImportOptions {
  const [dataset, ...rest] = argv;
  if (dataset !== "schools" && dataset !== "postal-codes") {
    throw new UsageError(dataset === undefined ? "name a dataset" : `unknown dataset "${dataset}"`);
  }
  const inputs: string[] = [];
  let outDir = DEFAULT_OUT_DIR;
  let verifiedOn = today;
  for (let i = 0; i < rest.length; i++) {
    const argument = rest[i] ?? "";
    if (argument === "--out" || argument === "--verified-on") {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${argument} needs a value`);
      i++;
      if (argument === "--out") outDir = path.resolve(value);
      else verifiedOn = value;
    } else if (argument.startsWith("--")) {
      throw new UsageError(`unknown option ${argument}`);
    } else {
      inputs.push(argument);
    }
  }
  if (!isRealDate(verifiedOn)) throw new UsageError(`--verified-on must be a real date written YYYY-MM-DD, not "${verifiedOn}"`);
  if (verifiedOn > today) throw new UsageError(`--verified-on ${verifiedOn} is in the future (today is ${today})`);
  if (inputs.length === 0) throw new UsageError(`name the ${dataset} file(s) to import`);
  if (dataset === "postal-codes" && inputs.length !== 1) throw new UsageError("postal-codes takes exactly one file");
  return { dataset, inputs, outDir, verifiedOn };
}

const TABLE_EXTENSIONS = new Set([".xlsx", ".xls", ".csv", ".txt"]);

/** Folders stand for the spreadsheets and CSV files directly inside them, in name order. */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (info === null) throw new UsageError(`no such file or folder: ${input}`);
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
  outputFile: string;
  rows: number;
  seconds: number;
  reportText: string;
  /** Files (or sheets) that could not be used at all, each with the columns it lacks. */
  unusableFiles: string[];
};

function unusable(files: readonly { file: string; sheet: string | null; missingColumns: string[]; usable: boolean }[]) {
  return files
    .filter((f) => !f.usable)
    .map((f) => `${f.sheet === null ? f.file : `${f.file} [${f.sheet}]`} has no column for ${f.missingColumns.join(", ")}`);
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const files = await expandInputs(options.inputs);
  const provenance = { source_url: "", verified_on: options.verifiedOn };
  if (options.dataset === "schools") {
    const { rows, report } = await importSchoolFiles(files);
    const outputFile = path.join(options.outDir, "high-schools.csv");
    await writeFileAtomically(
      outputFile,
      toCsv(HIGH_SCHOOL_COLUMNS, rows.map((row) => ({ ...row, ...provenance, source_url: DBE_SOURCE_URL }))),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      outputFile,
      rows: rows.length,
      seconds,
      reportText: formatSchoolsReport(report, outputFile, seconds),
      unusableFiles: unusable(report.files),
    };
  }
  const { rows, report } = await importPostalCodeFiles(files);
  const outputFile = path.join(options.outDir, "postal-codes.csv");
  await writeFileAtomically(
    outputFile,
    toCsv(POSTAL_CODE_COLUMNS, rows.map((row) => ({ ...row, ...provenance, source_url: SAPO_SOURCE_URL }))),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    outputFile,
    rows: rows.length,
    seconds,
    reportText: formatPostalReport(report, outputFile, seconds),
    unusableFiles: unusable(report.files),
  };
}

const count = (n: number) => n.toLocaleString("en-ZA").replace(/\u00a0/g, " ");

function sortedEntries(counts: Record<string, number | undefined>): [string, number][] {
  return Object.entries(counts)
    .filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function formatSchoolsReport(report: SchoolsReport, outputFile: string, seconds: number): string {
  const lines = ["DBE schools masterlist"];
  for (const file of report.files) {
    const where = file.sheet === null ? file.file : `${file.file} [${file.sheet}]`;
    const problem = file.missingColumns.length > 0 ? `  SKIPPED: no column for ${file.missingColumns.join(", ")}` : "";
    lines.push(`  ${where}: ${count(file.rowsRead)} rows read, ${count(file.kept)} kept${problem}`);
  }
  const droppedTotal = Object.values(report.dropped).reduce((sum, n) => sum + n, 0);
  lines.push(`  total: ${count(report.rowsRead)} rows read, ${count(report.kept)} kept, ${count(droppedTotal)} dropped`);
  lines.push("  dropped, by reason:");
  for (const [reason, n] of sortedEntries(report.dropped)) lines.push(`    ${count(n).padStart(7)}  ${reason}`);
  lines.push("  coordinates of kept rows:");
  lines.push(`    ${count(report.coordinates.ok ?? 0).padStart(7)}  usable as published`);
  for (const outcome of REPAIRED_OUTCOMES) {
    lines.push(`    ${count(report.coordinates[outcome] ?? 0).padStart(7)}  repaired: ${outcome.replace(/_/g, " ")}`);
  }
  for (const outcome of NULLED_OUTCOMES) {
    lines.push(`    ${count(report.coordinates[outcome] ?? 0).padStart(7)}  set to null: ${outcome.replace(/_/g, " ")}`);
  }
  lines.push(`  wrote ${count(report.kept)} rows to ${outputFile} in ${seconds.toFixed(2)} s`);
  return lines.join("\n");
}

export function formatPostalReport(report: PostalCodesReport, outputFile: string, seconds: number): string {
  const lines = ["SAPO postal code list"];
  for (const file of report.files) {
    const where = file.sheet === null ? file.file : `${file.file} [${file.sheet}]`;
    const problem = file.missingColumns.length > 0 ? `  (no column for ${file.missingColumns.join(", ")})` : "";
    lines.push(`  ${where}: ${count(file.rowsRead)} rows read${problem}`);
  }
  const droppedTotal = Object.values(report.dropped).reduce((sum, n) => sum + n, 0);
  lines.push(
    `  total: ${count(report.rowsRead)} rows read, ${count(report.kept)} kept, ` +
      `${count(report.duplicatesMerged)} exact duplicates merged, ${count(droppedTotal)} dropped`,
  );
  for (const [reason, n] of sortedEntries(report.dropped)) lines.push(`    ${count(n).padStart(7)}  dropped: ${reason}`);
  if (report.invalidCodes > 0) lines.push(`    ${count(report.invalidCodes).padStart(7)}  rows with a code cell that is not 1-4 digits (ignored)`);
  lines.push("  province derived from the code range (approximate):");
  for (const [province, n] of sortedEntries(report.byProvince)) lines.push(`    ${count(n).padStart(7)}  ${province}`);
  lines.push(`  wrote ${count(report.kept)} rows to ${outputFile} in ${seconds.toFixed(2)} s`);
  return lines.join("\n");
}

async function main(argv: readonly string[]): Promise<number> {
  let options: ImportOptions;
  try {
    options = parseArguments(argv, todayInJohannesburg(new Date()));
    const result = await runImport(options);
    console.log(result.reportText);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`import: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
