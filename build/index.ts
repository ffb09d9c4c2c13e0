// The build: load -> validate -> link -> emit -> publish. Every stage collects its problems; the build
// stops before writing anything if there are any, so a failed build leaves the previous dist/ as it was.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ApsScheme } from "../domain/aps/scheme.ts";
import { todayInJohannesburg } from "../lib/dates.ts";
import type { Manifest } from "../lib/layout.ts";
import { writeFile } from "node:fs/promises";
import { DOCS_PATH, OPENAPI_PATH } from "../lib/public-documents.ts";
import { linkApsSchemes } from "./aps.ts";
import { formatBursaryCoverage } from "./bursaries.ts";
import type { Conflict } from "./catalogue.ts";
import { catalogueWarnings, formatCoverage } from "./coverage.ts";
import { formatConflictsReport } from "./conflicts-report.ts";
import { layoutFiles, withFiles, type FileSink } from "./emit.ts";
import { findIndexFiles, formatFindIndexes } from "./find-index.ts";
import { apsDocuments, prospectusDocuments } from "./internal-documents.ts";
import { publicDocuments, readRendererFiles } from "./public-documents.ts";
import { checkKeysAndReferences, linkModel, type Model } from "./link.ts";
import { loadTables } from "./load.ts";
import { formatProblem, type Problem, type Warning } from "./problems.ts";
import { StagingFolder, swapIn } from "./publish.ts";
import { bulkFileProblem, bulkFiles } from "./bulk.ts";
import { metaFile } from "./meta.ts";
import { readHistory, recordRelease, RELEASES_FOLDER, type History } from "./release-history.ts";
import { fingerprintsOf, liveRelease, newRelease, planRelease, releaseFiles, retain, type Fingerprints, type ReleasePlan } from "./releases.ts";
import type { Release, ReleaseFile } from "../schema/releases.ts";
import { forgetRecordTexts, resourceRecords, type ResourceRecords } from "./records.ts";
import type { TableDefinition } from "./tables/define.ts";
import { sourceTables } from "./tables/index.ts";
import { rowCount, validateTables } from "./validate.ts";

export type BuildOptions = {
  /** Folder paths in reports are relative to. */
  root: string;
  sourcesDir: string;
  /** Override folder for the national tables (load.ts); none by default: the committed tables are built. */
  importedDir?: string;
  outDir: string;
  /** The date provenance is checked against (verified_on may not be later). */
  today: string;
  /** The build fails when dist/ would hold more files than this (Cloudflare's free plan: 20,000). */
  maxFiles: number;
  bucketThreshold: number;
  recordsPerBucket: number;
  /** The largest bulk file accepted (default Cloudflare's 25 MiB per asset; the bench's synthetic 10x build lifts it). */
  maxAssetBytes?: number;
  /** Where to write the catalogue's conflicts report (docs/data-conflicts.md for the committed sources); none if unset. */
  conflictsReport?: string;
  /**
   * Record a release, at this instant, when the records differ from the latest release's (npm run build -- --release,
   * the nightly rebuild). Recorded in sources/releases/ only once the build is published (recordPublishedRelease).
   */
  release?: Date;
  /** Stage only: write the new output beside outDir and return its folder without swapping it in. */
  stageOnly?: boolean;
  /** Keep the replaced output beside outDir for the next build to write over in place instead of removing it
   * (publish.ts swapIn and StagingFolder; npm run build). */
  recyclePrevious?: boolean;
  log?: (line: string) => void;
  /** When given, each stage's wall time is appended to it as the build goes (npm run build -- --timings). */
  timings?: StageTiming[];
};

/** A stage's wall time, the process's CPU time in it (user + system, every thread), and its resident memory when it ended. */
export type StageTiming = { stage: string; seconds: number; cpuSeconds: number; rssMiB: number };

/** A function that closes a stage: settles the heap, and appends the time since the previous call (or since it was made)
 * to `into`. */
function stageTimer(into: StageTiming[] | undefined): (stage: string, last?: boolean) => void {
  let mark = performance.now();
  let cpu = process.cpuUsage();
  return (stage, last = false) => {
    if (!last) settle();
    if (!into) return;
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    into.push({ stage, seconds: (now - mark) / 1000, cpuSeconds: (used.user + used.system) / 1e6, rssMiB: process.memoryUsage.rss() / 1024 / 1024 });
    mark = now;
    cpu = process.cpuUsage();
  };
}

/** The heap used past which the build collects garbage between its stages (the committed sources never reach it). */
const SETTLE_ABOVE_BYTES = 384 * 1024 * 1024;

let collect: (() => void) | undefined;

/**
 * A full garbage collection between two stages of a large build. V8 grows its heap to about twice what is live before
 * collecting; at 10x national scale a stage's garbage on top of the 500 MB the model and records hold took the build
 * to 1.3 GiB. Collected between stages, it stays under 1 GiB, for about a second of a 30-second build. The collector is
 * exposed at run time (--expose-gc set after start, the usual way to reach it without a command-line flag).
 */
function settle(): void {
  if (getHeapStatistics().used_heap_size < SETTLE_ABOVE_BYTES) return;
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}

/** The stage timings as lines: each stage's wall and CPU seconds, its share of the wall time, and the RSS after it. */
export function formatTimings(timings: readonly StageTiming[]): string[] {
  const total = timings.reduce((sum, t) => sum + t.seconds, 0);
  const width = Math.max(5, ...timings.map((t) => t.stage.length));
  const line = (stage: string, wall: string, cpu: string, share: string, rss: string) =>
    `  ${stage.padEnd(width)}  ${wall.padStart(7)}  ${cpu.padStart(7)}  ${share.padStart(5)}  ${rss.padStart(9)}`;
  return [
    line("stage", "wall", "CPU", "share", "RSS after"),
    ...timings.map((t) =>
      line(
        t.stage,
        `${t.seconds.toFixed(2)} s`,
        `${t.cpuSeconds.toFixed(2)} s`,
        `${((100 * t.seconds) / (total || 1)).toFixed(0)}%`,
        `${t.rssMiB.toFixed(0)} MiB`,
      ),
    ),
    line("total", `${total.toFixed(2)} s`, `${timings.reduce((sum, t) => sum + t.cpuSeconds, 0).toFixed(2)} s`, "", ""),
  ];
}

/** A release the build made and published, to be written into sources/releases/ (recordPublishedRelease). */
export type PendingRelease = { history: History; release: ReleaseFile; fingerprints: Fingerprints };

export type BuildResult =
  | {
      ok: true;
      manifest: Manifest;
      warnings: Warning[];
      seconds: number;
      stagedAt?: string;
      model: Model;
      conflicts: Conflict[];
      today: string;
      /** The live release's id; null when the records differ from the latest release and none was recorded. */
      release: string | null;
      /** Set when this build made a release: recorded by runBuild after the swap, by the caller of a staged build after its own. */
      pendingRelease: PendingRelease | null;
    }
  | { ok: false; problems: Problem[]; warnings: Warning[]; seconds: number };

export function defaultBuildOptions(root: string, overrides: Partial<BuildOptions> = {}): BuildOptions {
  const sourcesDir = overrides.sourcesDir ?? path.join(root, "sources");
  return {
    root,
    sourcesDir,
    outDir: path.join(root, "dist"),
    today: todayInJohannesburg(new Date()),
    maxFiles: Number(process.env.EDU_MAX_FILES ?? 20_000),
    bucketThreshold: 2_000,
    recordsPerBucket: 64,
    ...overrides,
  };
}

/** What the stages up to link produce: the model and the APS schemes, or the problems that stop the build. */
export type Assembly =
  | { ok: true; model: Model; schemes: Map<string, ApsScheme>; variants: Map<string, ApsScheme>; conflicts: Conflict[]; warnings: Warning[] }
  | { ok: false; problems: Problem[]; warnings: Warning[] };

/** Stages 1-3: load, validate, link (with the APS schemes). Tests use it to check the model without emitting. */
export async function assembleModel(
  options: Pick<BuildOptions, "sourcesDir" | "importedDir" | "root" | "today">,
  log: (line: string) => void = () => {},
  timed: (stage: string) => void = () => {},
): Promise<Assembly> {
  const tables = sourceTables(options.today);
  const definitions = Object.values(tables) as TableDefinition[];
  const loaded = await loadTables(definitions, { sources: options.sourcesDir, imported: options.importedDir, root: options.root });
  log(`load      ${definitions.length} tables, ${[...loaded.tables.values()].reduce((n, t) => n + t.rows.length, 0)} rows`);
  timed("load");
  const validated = validateTables(tables, loaded.tables);
  // The raw rows are done with: at national scale they are a fifth of what the link stage would hold.
  for (const table of loaded.tables.values()) table.rows.length = 0;
  timed("validate");
  log(`validate  ${rowCount(validated.valid)} valid rows, ${validated.problems.length} problem(s)`);
  const unreadable = [...loaded.tables.values()].filter((t) => t.unreadable).map((t) => t.definition.name);
  if (unreadable.length > 0) {
    // Keys, references and links need whole tables; with one missing they would only report its echoes.
    log(`link      skipped: ${unreadable.join(", ")} could not be read`);
    return { ok: false, problems: sortProblems([...loaded.problems, ...validated.problems]), warnings: [] };
  }
  const keyProblems = checkKeysAndReferences(tables, validated.valid);
  const linked = linkModel(validated.valid, options.today);
  const aps = linkApsSchemes(validated.valid, linked.model);
  const warnings = [...linked.warnings, ...aps.warnings];
  const validCount = new Map((Object.keys(tables) as (keyof typeof tables)[]).map((key) => [tables[key].name, validated.valid[key].length]));
  for (const definition of definitions) {
    if (definition.whenEmpty && (validCount.get(definition.name) ?? 0) === 0) {
      warnings.push({ resource: definition.name, kind: "empty tables", message: `no records; to fill it, ${definition.whenEmpty}` });
    }
  }
  const linkProblems = [...keyProblems, ...linked.problems, ...aps.problems];
  const problems = [...loaded.problems, ...validated.problems, ...linkProblems];
  timed("link");
  log(`link      ${problems.length === 0 ? "all keys unique, all references resolve" : `${linkProblems.length} problem(s)`}`);
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems), warnings };
  return {
    ok: true,
    model: linked.model,
    schemes: aps.schemes,
    variants: aps.variants,
    conflicts: linked.conflicts,
    warnings: [...warnings, ...catalogueWarnings(linked.model, linked.conflicts, options.today)],
  };
}

export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const seconds = () => (performance.now() - started) / 1000;
  const timed = stageTimer(options.timings);
  // Swagger UI's files are read now, on the thread pool, for the documents stage at the end.
  void readRendererFiles();
  const assembly = await assembleModel(options, log, timed);
  if (!assembly.ok) return { ok: false, problems: assembly.problems, warnings: assembly.warnings, seconds: seconds() };
  const { model, schemes, variants, conflicts, warnings } = assembly;
  if (options.conflictsReport)
    await writeFile(options.conflictsReport, formatConflictsReport(conflicts, model, [...schemes.values(), ...variants.values()]));

  timed("conflicts report");
  const records = resourceRecords(model, schemes, variants);
  timed("records");
  // From here on each file is written into the staging folder as it is made; a problem or an error removes the
  // folder, so dist/ is swapped only for a whole build that passed every check.
  const staging = await StagingFolder.open(options.outDir);
  try {
    const published = await emitInto(staging, options, assembly, records, warnings, log, timed);
    if (!published.ok) {
      await staging.discard();
      return { ok: false, problems: published.problems, warnings, seconds: seconds() };
    }
    const { manifest, live, made, plan, history } = published;
    const pendingRelease = made ? { history, release: made, fingerprints: plan.fingerprints } : null;
    const done = {
      ok: true as const,
      manifest,
      warnings,
      model,
      conflicts,
      today: options.today,
      release: live?.id ?? null,
      pendingRelease,
    };
    await staging.settled();
    timed("writes settled");
    if (options.stageOnly) return { ...done, seconds: seconds(), stagedAt: staging.folder };
    await swapIn(staging.folder, options.outDir, { previous: options.recyclePrevious ? "recycle" : "remove" });
    timed("swap", true);
    log(`publish   ${path.relative(options.root, options.outDir) || options.outDir}/ swapped in`);
    await recordPublishedRelease(options.sourcesDir, done);
    if (pendingRelease)
      log(
        `record    release ${pendingRelease.release.id} written to ${path.relative(options.root, path.join(options.sourcesDir, RELEASES_FOLDER))}/`,
      );
    return { ...done, seconds: seconds() };
  } catch (error) {
    await staging.discard();
    throw error;
  }
}

type Emitted =
  | { ok: true; manifest: Manifest; live: Release | null; made: ReleaseFile | null; plan: ReleasePlan; history: History }
  | { ok: false; problems: Problem[] };

/** Stage 4, emit: every file of the build put into `sink` as it is made, and the problems that stop the build. */
async function emitInto(
  sink: FileSink,
  options: BuildOptions,
  assembly: Extract<Assembly, { ok: true }>,
  records: ResourceRecords[],
  warnings: Warning[],
  log: (line: string) => void,
  timed: (stage: string, last?: boolean) => void,
): Promise<Emitted> {
  const { model, schemes, variants } = assembly;
  const find = findIndexFiles(records, model, undefined, sink);
  timed("find indexes");
  const emission = layoutFiles(
    records,
    [prospectusDocuments(model), ...apsDocuments(model, schemes, variants)],
    options,
    { find: find.manifest },
    sink,
  );
  timed("lay out");
  const history = await readHistory(options.sourcesDir);
  timed("release history read");
  // Each bulk file is written a part at a time (a national one is tens of MiB); withFiles counts them.
  const bulkProblems: Problem[] = [];
  for (const file of bulkFiles(records)) {
    const problem = bulkFileProblem(file.path, sink.putParts(file.path, file.parts), options.maxAssetBytes);
    if (problem) bulkProblems.push(problem);
  }
  forgetRecordTexts();
  timed("bulk files");
  const fingerprints = fingerprintsOf(records);
  timed("fingerprints");
  const problems = [...emission.problems, ...find.problems, ...history.problems, ...bulkProblems];
  if (problems.length > 0) return { ok: false, problems };
  const dataVersion = emission.manifest.data_version;
  const plan = planRelease(fingerprints, history.history.fingerprints);
  const made = options.release && !plan.unchanged ? newRelease(history.history.releases, plan, dataVersion, options.release) : null;
  // Cut to the retention period here too: a history committed with releases past it still serves only 400 days.
  const releases = retain(made ? [made, ...history.history.releases] : history.history.releases).kept;
  const live = liveRelease(history.history.releases, plan, made);
  if (!live) warnings.push(unreleasedWarning(plan));
  timed("releases");
  const manifest = withFiles(emission.manifest, [...releaseFiles(releases, live, dataVersion), metaFile(records, model, live, dataVersion)], sink);
  log(
    `release   ${made ? `${made.id} made (${plan.changes.length} records changed)` : live ? `${live.id} (the records are the latest release's)` : "none: the records differ from the latest release"}`,
  );
  // The OpenAPI document and the reference page, outside the manifest (it describes the data files).
  const documents = await publicDocuments({ text: (file) => sink.read(file), manifest }, options.today);
  for (const file of documents) sink.put(file);
  timed("documents");
  const fileCount = manifest.files + documents.length;
  if (fileCount > options.maxFiles) {
    const problem: Problem = {
      file: path.relative(options.root, options.outDir) || options.outDir,
      line: 0,
      value: String(fileCount),
      expected: `at most ${options.maxFiles} files (the deployment's file limit, EDU_MAX_FILES); lower the number of files by storing more records per bucket`,
    };
    return { ok: false, problems: [problem] };
  }
  log(`emit      ${manifest.files} files, ${(emission.manifest.bytes / 1024).toFixed(0)} KiB of data, data version ${dataVersion}`);
  log(`docs      ${documents.length} files: ${OPENAPI_PATH} and the reference page ${DOCS_PATH}`);
  return { ok: true, manifest, live, made, plan, history: history.history };
}

/** Writes a published build's release into sources/releases/; call it only after the build was swapped in. */
export async function recordPublishedRelease(sourcesDir: string, result: { pendingRelease: PendingRelease | null }): Promise<void> {
  const pending = result.pendingRelease;
  if (pending) await recordRelease(sourcesDir, pending.history, pending.release, pending.fingerprints);
}

function unreleasedWarning(plan: ReleasePlan): Warning {
  const changed = plan.changes.length;
  return {
    resource: "releases",
    kind: "records differ from the latest release (npm run build -- --release records one)",
    message:
      changed === 0
        ? "there is no release yet: npm run build -- --release records the first"
        : `${changed} records added, removed or changed since the latest release; /v1/meta says release null until one is recorded`,
  };
}

/** Unreadable files first (their cause is what to fix first), then by file and line. */
function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => Number(b.fatal ?? false) - Number(a.fatal ?? false) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line),
  );
}

/** Where `npm run build` and `npm start` write the warnings' details (git-ignored, as every *.log). */
export const WARNINGS_FILE = ".build-warnings.log";

/** Writes the details of the build's warnings to WARNINGS_FILE under `root`; returns its path relative to root, or null when there are none. */
export async function writeWarningsFile(root: string, result: BuildResult): Promise<string | null> {
  if (result.warnings.length === 0) return null;
  await writeFile(path.join(root, WARNINGS_FILE), `${formatWarnings(result.warnings)}\n`);
  return WARNINGS_FILE;
}

/** Every warning with its details, grouped by kind: what --verbose prints and the warnings file holds. */
function formatWarnings(warnings: readonly Warning[]): string {
  const lines: string[] = [];
  for (const [kind, group] of warningKinds(warnings)) {
    lines.push(`${kind} (${group.length}):`);
    for (const warning of group) lines.push(`  ${warning.message}`);
  }
  return lines.join("\n");
}

/** Warnings by `[resource] kind`, in the order each kind first appears. */
function warningKinds(warnings: readonly Warning[]): Map<string, Warning[]> {
  const kinds = new Map<string, Warning[]>();
  for (const warning of warnings) {
    const key = `[${warning.resource}] ${warning.kind}`;
    kinds.set(key, [...(kinds.get(key) ?? []), warning]);
  }
  return kinds;
}

/**
 * What the build says at the end. Warnings come one line per kind with its count; their details with
 * `verbose`, or in `warningsFile`, which the summary names (the command writes it: formatWarnings).
 */
export function formatSummary(result: BuildResult, options: { verbose?: boolean; warningsFile?: string } = {}): string {
  const lines: string[] = [];
  if (result.ok) {
    lines.push("", "Build succeeded", "");
    const width = Math.max(...Object.keys(result.manifest.resources).map((n) => n.length));
    for (const [name, resource] of Object.entries(result.manifest.resources)) {
      const storage = resource.detail?.kind === "buckets" ? ` (details in ${resource.detail.count} buckets)` : "";
      lines.push(`  ${name.padEnd(width)}  ${String(resource.total).padStart(7)} records${storage}`);
    }
    lines.push("", ...formatCoverage(result.model, result.today));
    lines.push("", ...formatBursaryCoverage(result.model.bursaries, result.today));
    lines.push("", `  files written: ${result.manifest.files}, ${(result.manifest.bytes / 1024 / 1024).toFixed(2)} MiB`);
    lines.push(...formatFindIndexes(result.manifest));
    lines.push(`  data version:  ${result.manifest.data_version}`);
    lines.push(`  time:          ${result.seconds.toFixed(2)} s`);
  } else {
    lines.push("", `Build failed: ${result.problems.length} problem(s); dist/ was left as it was.`, "");
    for (const problem of result.problems) lines.push(`  ${formatProblem(problem)}`);
    lines.push("", `  time: ${result.seconds.toFixed(2)} s`);
  }
  if (result.warnings.length > 0 && options.verbose) {
    lines.push(
      "",
      `Warnings (${result.warnings.length}; none stops the build):`,
      ...formatWarnings(result.warnings)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  } else if (result.warnings.length > 0) {
    const kinds = warningKinds(result.warnings);
    lines.push("", `Warnings of ${kinds.size} kinds, gaps in the data that the build works around (none stops it):`);
    for (const [kind, group] of kinds) lines.push(`  ${String(group.reduce((n, w) => n + (w.count ?? 1), 0)).padStart(5)}  ${kind}`);
    lines.push(`  details: ${options.warningsFile ? `${options.warningsFile}, or ` : ""}npm run build -- --verbose`);
  }
  return lines.join("\n");
}
