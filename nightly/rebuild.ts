// The nightly rebuild, in the order it runs: gather the national files -> import them -> build into a
// staging folder beside dist/ -> diff against the published build -> guard -> swap in -> (deploy).
// Everything before the swap happens in temporary folders: when any step fails or the guard refuses,
// dist/ and the committed national tables in sources/ are left exactly as they were. When it publishes, the
// refreshed tables are copied into sources/, so the repository can hold exactly what was built (the
// GitHub Actions workflow commits them).
import { spawn } from "node:child_process";
import { parse } from "csv-parse/sync";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defaultBuildOptions, recordPublishedRelease, runBuild, type PendingRelease } from "../build/index.ts";
import { recoverInterruptedPublish, swapIn } from "../build/publish.ts";
import { formatProblem } from "../build/problems.ts";
import { todayInJohannesburg } from "../lib/dates.ts";
import { UnreadableFileError } from "../importers/read-table.ts";
import { writeFileAtomically } from "../lib/write-atomically.ts";
import { DATASETS, IMPORTERS, UnusableFilesError } from "../importers/run.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { loadUpstreamConfig, type UpstreamConfig } from "./config.ts";
import { diffBuilds, type BuildDiff } from "./diff.ts";
import type { DownloadOptions } from "./download.ts";
import { guardFloors, guardGroups, guardLosses, losses } from "./guard.ts";
import { writeReport, type RebuildReport } from "./report.ts";
import { gatherUpstream, importUpstream, IncompleteUpstreamError, type UpstreamFiles, type UpstreamImport } from "./upstream.ts";

export type RebuildOptions = {
  root: string;
  configFile: string;
  /** Local folder with schools/ and postal-codes/ that replaces the config's downloads (EDU_UPSTREAM_DIR). */
  upstreamDir?: string;
  /** The sources the build reads; its national tables (high-schools.csv, postal-codes.csv, nsc-results.csv)
   * are refreshed only when the rebuild publishes. */
  sourcesDir: string;
  outDir: string;
  reportDir: string;
  /** Overrides the config's guard.max_drop_share. */
  maxDropShare?: number;
  allowDrop: boolean;
  deploy: boolean;
  /** The deploy command (default: wrangler deploy --env live); tests replace it. */
  deployCommand?: string[];
  download?: Partial<DownloadOptions>;
  log?: (line: string) => void;
  /** When the run happens (the release's id and time; default: now); tests set it. */
  now?: Date;
  /** The verified_on of freshly imported rows (default: today in Johannesburg); tests set it. */
  today?: string;
};

export type RebuildResult = RebuildReport & { reportFiles: { markdown: string; json: string } };

/** Problems shown in the report when the build fails (all of them are in `npm run build`'s output). */
const MAX_PROBLEMS_SHOWN = 20;

function defaultDeployCommand(root: string): string[] {
  return [process.execPath, path.join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--env", "live"];
}

function runCommand(command: string[], cwd: string, log: (line: string) => void): Promise<number> {
  const [program, ...args] = command;
  return new Promise((resolve) => {
    const child = spawn(program as string, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      // Telemetry and phone-home off; a deploy still reaches Cloudflare's API.
      env: { ...process.env, ...WRANGLER_OFFLINE_ENV },
    });
    const forward = (chunk: Buffer) =>
      chunk
        .toString()
        .split("\n")
        .filter(Boolean)
        .forEach((line) => {
          log(`deploy    ${line}`);
        });
    child.stdout.on("data", forward);
    child.stderr.on("data", forward);
    child.on("error", (error) => {
      log(`deploy    ${error.message}`);
      resolve(127);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** Data rows of a committed CSV table (0 when it does not exist). */
async function countRows(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  return (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "").length - 1;
}

/** Rows per value of `column` in a committed or imported CSV table (empty when the file does not exist). */
async function countBy(file: string, column: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!existsSync(file)) return counts;
  for (const row of parse(await readFile(file, "utf8"), { columns: true, skip_empty_lines: true }) as Record<string, string>[]) {
    const key = row[column] ?? "";
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * The parts of the national tables, each against its own drop limit: the high schools of each province (one
 * workbook each), and the postal code table, which one file makes (the NSC results have their own check). Compared
 * with the committed tables, once something was published (a first publication has nothing to compare with).
 */
async function guardParts(run: Run, imported: string, maxShare: number): Promise<string[]> {
  const { sourcesDir } = run.options;
  // The tables one upstream file makes whole (the schools are many workbooks: their parts are the provinces).
  const tables = ["postal-codes.csv"];
  const rows = async (folder: string) =>
    new Map(await Promise.all(tables.map(async (t): Promise<[string, number]> => [t, await countRows(path.join(folder, t))])));
  return [
    ...guardGroups(
      "the high schools of",
      await countBy(path.join(sourcesDir, "high-schools.csv"), "province_id"),
      await countBy(path.join(imported, "high-schools.csv"), "province_id"),
      maxShare,
    ),
    ...guardGroups("the rows of", await rows(sourcesDir), await rows(imported), maxShare),
  ];
}

/** A refusal when a table would lose more than the allowed share of its committed rows. */
function guardTableLoss(table: string, before: number, after: number, maxDropShare: number): string[] {
  if (before <= 0 || after >= before) return [];
  const share = (before - after) / before;
  if (share <= maxDropShare) return [];
  return [
    `${table} would lose ${(before - after).toLocaleString("en")} of its ${before.toLocaleString("en")} committed rows ` +
      `(${(share * 100).toFixed(1)}%, more than the allowed ${(maxDropShare * 100).toFixed(0)}%): ${before.toLocaleString("en")} -> ${after.toLocaleString("en")}`,
  ];
}

/** The table with its last column, verified_on, cut off every line: what the upstream says, not when we read it.
 * (The importers write verified_on last, and a date holds no comma, so the last comma is where it starts.) */
function factsOf(text: string): string | null {
  const lines = text.trimEnd().split("\n");
  if (!lines[0]?.endsWith(",verified_on")) return null;
  return lines.map((line) => line.slice(0, line.lastIndexOf(","))).join("\n");
}

/**
 * Where an imported table states exactly what the committed one does (every row but its verified_on), the committed
 * table stands in for it: re-reading an unchanged upstream file must not rewrite every record (and the data version
 * and every ETag with it) just because the date of reading moved on. Returns the names kept.
 */
async function keepUnchangedTables(imported: string, committed: string): Promise<string[]> {
  const kept: string[] = [];
  for (const name of (await readdir(imported)).sort()) {
    const target = path.join(committed, name);
    if (!existsSync(target)) continue;
    const [fresh, current] = await Promise.all([readFile(path.join(imported, name), "utf8"), readFile(target, "utf8")]);
    const facts = factsOf(fresh);
    if (fresh !== current && facts !== null && facts === factsOf(current)) {
      await writeFileAtomically(path.join(imported, name), current);
      kept.push(name);
    }
  }
  return kept;
}

/** Copies the freshly imported tables over the committed ones (each file replaced atomically); returns the
 * names of those whose content changed. */
async function refreshTables(from: string, to: string): Promise<string[]> {
  const changed: string[] = [];
  for (const name of (await readdir(from)).sort()) {
    const text = await readFile(path.join(from, name), "utf8");
    const target = path.join(to, name);
    const before = existsSync(target) ? await readFile(target, "utf8") : null;
    if (before === text) continue;
    await writeFileAtomically(target, text);
    changed.push(name);
  }
  return changed;
}

/** What one run carries from step to step; each step records its findings in `report`. */
type Run = {
  options: RebuildOptions;
  report: RebuildReport;
  log: (line: string) => void;
  workDir: string;
  /** The staging folder of a build that is not yet published (removed if the run stops before publishing). */
  staged?: string;
  /** The release the staged build made, recorded only when it is published. */
  pendingRelease?: PendingRelease | null;
};

/** A step that ends the run: the report already says why (status "failed" unless the step set another). */
class Stop extends Error {}

function stop(run: Run, status: RebuildReport["status"], ...reasons: string[]): never {
  run.report.status = status;
  run.report.reasons.push(...reasons);
  throw new Stop();
}

/** 1. gather the upstream files (downloads, or EDU_UPSTREAM_DIR). */
async function gather(run: Run, config: UpstreamConfig): Promise<UpstreamFiles> {
  const { options } = run;
  try {
    const upstream = await gatherUpstream({
      config,
      root: options.root,
      workDir: run.workDir,
      upstreamDir: options.upstreamDir,
      download: options.download,
      log: run.log,
    });
    run.report.upstream = upstream.origin;
    return upstream;
  } catch (error) {
    // A configured file that is missing or empty is a refusal, like any other sign of a shrunken data set.
    return stop(run, error instanceof IncompleteUpstreamError ? "refused" : "failed", error instanceof Error ? error.message : String(error));
  }
}

/** 2. import them into a folder of the run's own; an unchanged table keeps the committed one. */
async function importTables(run: Run, upstream: UpstreamFiles): Promise<{ folder: string; imports: UpstreamImport }> {
  const { options, report } = run;
  const folder = path.join(run.workDir, "imported");
  let imports: UpstreamImport;
  try {
    imports = await importUpstream(upstream, folder, options.today ?? todayInJohannesburg(new Date()));
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    const problems = error instanceof UnusableFilesError ? error.problems : [error.message];
    return stop(run, "refused", ...problems.map((problem) => `unusable upstream file: ${problem}`));
  }
  const results = DATASETS.map((dataset) => ({ importer: IMPORTERS[dataset], result: imports[dataset] }));
  run.log(
    `import    ${results.map(({ importer, result }) => (result === null ? `no ${importer.name} files (${importer.table} kept)` : `${result.rows} ${importer.rowsName}`)).join(", ")}`,
  );
  report.imported = Object.fromEntries(results.map(({ importer, result }) => [importer.reportKey, result?.rows ?? null]));
  for (const name of await keepUnchangedTables(folder, options.sourcesDir))
    report.notes.push(`${name}: the upstream states what the committed table does; kept with its verified_on`);
  report.import_reports = results.flatMap(({ result }) => (result ? [result.reportText] : []));
  const empty = results.flatMap(({ importer, result }) => (result?.rows === 0 ? [`the ${importer.name} import produced no rows`] : []));
  if (empty.length > 0) stop(run, "refused", ...empty);
  return { folder, imports };
}

/** The files of an import report none of whose tables (a workbook's sheets) held a row. */
function hollowFiles(report: { files: readonly { file: string; rowsRead?: number }[] }): string[] {
  const rowsByFile = new Map<string, number>();
  for (const f of report.files) if (f.rowsRead !== undefined) rowsByFile.set(f.file, (rowsByFile.get(f.file) ?? 0) + f.rowsRead);
  return [...rowsByFile].filter(([, rows]) => rows === 0).map(([file]) => file);
}

/** 3. build into a staging folder beside dist/, with the fresh tables as the override folder. */
async function stage(run: Run, imported: string): Promise<string> {
  const { options } = run;
  const build = await runBuild(
    defaultBuildOptions(options.root, {
      sourcesDir: options.sourcesDir,
      importedDir: imported,
      outDir: options.outDir,
      stageOnly: true,
      release: options.now ?? new Date(),
    }),
  );
  if (!build.ok) {
    const shown = build.problems.slice(0, MAX_PROBLEMS_SHOWN).map((problem) => `  ${formatProblem(problem)}`);
    const more = build.problems.length > MAX_PROBLEMS_SHOWN ? [`  … and ${build.problems.length - MAX_PROBLEMS_SHOWN} more`] : [];
    stop(run, "refused", `the build failed validation with ${build.problems.length} problem(s):`, ...shown, ...more);
  }
  run.staged = build.stagedAt as string;
  run.pendingRelease = build.pendingRelease;
  run.log(`build     ${build.manifest.files} files, data version ${build.manifest.data_version} (staged)`);
  return run.staged;
}

/** 4. diff against the published build, and 5. guard: refuse losses over the share and resources under their floor. */
async function guard(run: Run, config: UpstreamConfig, staged: string, imported: string, imports: UpstreamImport): Promise<BuildDiff> {
  const { options, report } = run;
  const maxDropShare = options.maxDropShare ?? config.guard.max_drop_share;
  const diff: BuildDiff = await diffBuilds(options.outDir, staged);
  report.diff = diff;
  if (diff.oldVersion === null) report.notes.push("nothing was published before: no comparison, this build becomes the baseline");
  const refusals = [
    ...guardLosses(diff, maxDropShare),
    ...guardFloors(diff, config.guard.min_records),
    // The NSC results are no resource of their own (they are joined onto high schools, whose records then
    // only "change"), so a shrunken report is caught by comparing its rows with the committed table's (once
    // something was published: like the other losses, a first publication has nothing to compare with).
    ...(imports.nsc === null || diff.oldVersion === null
      ? []
      : guardTableLoss("nsc-results.csv", await countRows(path.join(options.sourcesDir, "nsc-results.csv")), imports.nsc.rows, maxDropShare)),
    // The parts, each with a limit of its own: a whole province can vanish inside the total's share.
    ...(diff.oldVersion === null ? [] : await guardParts(run, imported, config.guard.max_group_drop_share)),
    // A file cut to its header row is present and not empty, but holds nothing: the special-needs centres' workbook
    // spreads its schools over every province, so no province's drop limit notices it.
    ...DATASETS.flatMap((dataset) => {
      const result = imports[dataset];
      return result
        ? hollowFiles(result.report).map((file) => `${file}: the ${IMPORTERS[dataset].name} file holds no rows (cut to its header?)`)
        : [];
    }),
  ];
  if (refusals.length > 0 && !options.allowDrop) {
    stop(run, "refused", ...refusals, "rerun with --allow-drop to publish anyway, once you have checked that the loss is real");
  }
  for (const refusal of refusals) report.notes.push(`allowed by --allow-drop: ${refusal}`);
  for (const loss of losses(diff).filter((l) => l.share <= maxDropShare))
    report.notes.push(
      `${loss.resource} lost ${loss.lost} record(s) (${(loss.share * 100).toFixed(1)}%, within the allowed ${(maxDropShare * 100).toFixed(0)}%)`,
    );
  return diff;
}

/** 6. publish: the staged build into dist/, the fresh tables over the committed ones. */
async function publish(run: Run, staged: string, imported: string, diff: BuildDiff): Promise<void> {
  const { options, report } = run;
  await swapIn(staged, options.outDir);
  run.staged = undefined;
  report.tables_refreshed = await refreshTables(imported, options.sourcesDir);
  // Recorded only now, after the swap: a refused or failed rebuild never records a release.
  await recordPublishedRelease(options.sourcesDir, { pendingRelease: run.pendingRelease ?? null });
  report.release = run.pendingRelease?.release.id ?? null;
  report.status = "published";
  run.log(`release   ${report.release ? `${report.release} recorded in sources/releases/` : "none: the records are the latest release's"}`);
  run.log(`sources   ${report.tables_refreshed.length === 0 ? "national tables unchanged" : `refreshed ${report.tables_refreshed.join(", ")}`}`);
  run.log(
    `publish   ${path.relative(options.root, options.outDir) || options.outDir}/ swapped in (${diff.oldVersion ?? "nothing"} -> ${diff.newVersion})`,
  );
}

/** 7. deploy, when asked: a failure leaves dist/ published and says the live deployment did not change. */
async function deploy(run: Run): Promise<void> {
  const { options, report } = run;
  const code = await runCommand(options.deployCommand ?? defaultDeployCommand(options.root), options.root, run.log);
  if (code !== 0) {
    report.status = "failed";
    report.reasons.push(`the deploy command exited with ${code}: dist/ holds the new build, but the live deployment was not changed`);
  } else {
    report.deployed = true;
  }
}

export async function runRebuild(options: RebuildOptions): Promise<RebuildResult> {
  const report: RebuildReport = {
    status: "failed",
    started_at: new Date().toISOString(),
    upstream: null,
    imported: null,
    import_reports: [],
    tables_refreshed: [],
    release: null,
    reasons: [],
    notes: [],
    diff: null,
    deployed: false,
  };
  const run: Run = { options, report, log: options.log ?? (() => {}), workDir: await mkdtemp(path.join(os.tmpdir(), "edu-rebuild-")) };
  try {
    await recoverInterruptedPublish(options.outDir);
    const config = await loadUpstreamConfig(options.configFile);
    const upstream = await gather(run, config);
    const { folder, imports } = await importTables(run, upstream);
    const staged = await stage(run, folder);
    const diff = await guard(run, config, staged, folder, imports);
    await publish(run, staged, folder, diff);
    if (options.deploy) await deploy(run);
  } catch (error) {
    if (!(error instanceof Stop)) {
      report.status = "failed";
      report.reasons.push(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  } finally {
    if (run.staged !== undefined) await rm(run.staged, { recursive: true, force: true });
    await rm(run.workDir, { recursive: true, force: true });
  }
  return { ...report, reportFiles: await writeReport(report, options.reportDir) };
}
