// Step 1 of the nightly rebuild: gather the national files, either from a local folder laid out like
// ../shared/data (EDU_UPSTREAM_DIR: schools/, postal-codes/, nsc/) or by downloading what the committed
// config names. Nothing is imported from a partial set: any failed download stops the rebuild. The
// importing itself is importers/run.ts (importNational), the same code `npm run import` runs.
import { existsSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { DATASETS, expandInputs, IMPORTERS, importNational, InputError, type NationalFiles, type NationalImport } from "../importers/run.ts";
import type { UpstreamConfig, UpstreamFile } from "./config.ts";
import { downloadFile, type DownloadOptions } from "./download.ts";

/** The national files of one run; `nsc` is empty when the run has no NSC report (the committed table stays). */
export type UpstreamFiles = NationalFiles & { origin: string };

/** A configured upstream file is missing or empty: the rebuild refuses (nothing is imported from a partial set). */
export class IncompleteUpstreamError extends Error {}

export type GatherOptions = {
  config: UpstreamConfig;
  /** Config paths are relative to this folder (the project root). */
  root: string;
  /** Downloads go here. */
  workDir: string;
  /** A local folder with schools/, postal-codes/ and (optionally) nsc/ that replaces the config's files. */
  upstreamDir?: string;
  download?: Partial<DownloadOptions>;
  log: (line: string) => void;
};

async function filesIn(folder: string, what: string, optional = false): Promise<string[]> {
  if (!existsSync(folder)) {
    if (optional) return [];
    throw new InputError(`the upstream folder has no ${what} folder: ${folder}`);
  }
  const files = await expandInputs([folder]);
  if (files.length === 0) throw new InputError(`no .xlsx, .csv, .txt or .json file in ${folder}`);
  return files;
}

/** The files of a local upstream folder laid out like ../shared/data: each importer's folder (schools/, postal-codes/,
 * nsc/), holding exactly one file where its command takes one. */
export async function localUpstream(folder: string): Promise<UpstreamFiles> {
  const dir = path.resolve(folder);
  const files = { origin: dir } as UpstreamFiles;
  for (const dataset of DATASETS) {
    const { upstream, arguments: rules, name } = IMPORTERS[dataset];
    const found = await filesIn(path.join(dir, upstream.folder), `${upstream.folder}/`, upstream.optional);
    if (rules.oneFile && found.length !== 1) {
      throw new InputError(`expected exactly one ${name} file in ${path.join(dir, upstream.folder)}, found ${found.length}`);
    }
    files[dataset] = found;
  }
  return files;
}

/**
 * The configured files a local upstream folder lacks or holds empty (none when `config` is not given): the
 * set must be complete, since a province's workbook that vanished otherwise only shows as fewer schools.
 * The folder may hold more files than the config names (all are imported).
 */
async function missingUpstreamFiles(folder: string, config: UpstreamConfig): Promise<string[]> {
  const expected: [string, string][] = [
    ...config.schools.files.map((f): [string, string] => ["schools", f.name]),
    ...config.postal_codes.files.map((f): [string, string] => ["postal-codes", f.name]),
    ...(config.nsc?.files ?? []).map((f): [string, string] => ["nsc", f.name]),
  ];
  const problems: string[] = [];
  for (const [sub, name] of expected) {
    const file = path.join(folder, sub, name);
    const size = existsSync(file) ? (await stat(file)).size : null;
    if (size === null) problems.push(`${sub}/${name} is missing`);
    else if (size === 0) problems.push(`${sub}/${name} is empty`);
  }
  return problems;
}

export type UpstreamImport = NationalImport;

/** Step 2: the national datasets imported with the real importers into outDir (the tables the build reads). */
export async function importUpstream(files: UpstreamFiles, outDir: string, verifiedOn: string): Promise<UpstreamImport> {
  return importNational(files, outDir, verifiedOn);
}

export async function gatherUpstream(options: GatherOptions): Promise<UpstreamFiles> {
  if (options.upstreamDir) {
    const missing = await missingUpstreamFiles(path.resolve(options.upstreamDir), options.config);
    if (missing.length > 0) {
      throw new IncompleteUpstreamError(
        `the upstream folder ${path.resolve(options.upstreamDir)} does not hold every file the upstream config names: ${missing.join("; ")}`,
      );
    }
    const files = await localUpstream(options.upstreamDir);
    options.log(
      `upstream  ${files.origin} (EDU_UPSTREAM_DIR): ${DATASETS.map((d) => `${files[d].length} ${IMPORTERS[d].upstream.folder} file(s)`).join(", ")}`,
    );
    return files;
  }

  const { download } = options.config;
  const downloadOptions: DownloadOptions = {
    timeoutMs: download.timeout_seconds * 1000,
    attempts: download.attempts,
    maxBytes: Math.round(download.max_megabytes * 1024 * 1024),
    ...options.download,
  };
  const fetchOne = async (entry: UpstreamFile, folder: string): Promise<string> => {
    if (entry.path !== undefined) {
      const file = path.resolve(options.root, entry.path);
      if (!existsSync(file)) throw new IncompleteUpstreamError(`the upstream config names a local file that does not exist: ${file}`);
      if ((await stat(file)).size === 0) throw new IncompleteUpstreamError(`the upstream config names a local file that is empty: ${file}`);
      return file;
    }
    const target = path.join(options.workDir, folder, entry.name);
    await mkdir(path.dirname(target), { recursive: true });
    const bytes = await downloadFile(entry.url as string, target, downloadOptions);
    if (bytes === 0) throw new IncompleteUpstreamError(`the upstream file ${entry.name} downloaded from ${entry.url} is empty`);
    options.log(`download  ${entry.name}: ${(bytes / 1024).toFixed(0)} KiB from ${entry.url}`);
    return target;
  };
  // One at a time: the DBE's server is slow and shared, and the files are small.
  const files = { origin: "nightly/upstream.json" } as UpstreamFiles;
  for (const dataset of DATASETS) {
    const { upstream } = IMPORTERS[dataset];
    files[dataset] = [];
    for (const entry of options.config[upstream.config]?.files ?? []) files[dataset].push(await fetchOne(entry, upstream.folder));
  }
  return files;
}
