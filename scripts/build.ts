// npm run build [-- options]: sources/ -> dist/ (build/index.ts), with the summary and coverage table.
import path from "node:path";
import { parseArgs } from "node:util";
import {
  defaultBuildOptions,
  formatSummary,
  formatTimings,
  runBuild,
  WARNINGS_FILE,
  writeWarningsFile,
  type BuildOptions,
  type StageTiming,
} from "../build/index.ts";
import { runCommand, UsageError } from "../lib/cli.ts";
import { isRealDate } from "../build/tables/cells.ts";
import { ROOT } from "../lib/root.ts";

const USAGE = `usage: npm run build -- [--sources DIR] [--imported DIR] [--out DIR] [--max-files N] [--today YYYY-MM-DD] [--conflicts FILE] [--release] [--verbose] [--timings]

Builds dist/ from the CSV tables in sources/; a failed build leaves dist/ as it was.
  --sources DIR      the tables (default sources/)
  --imported DIR     a folder of national tables (high-schools.csv, postal-codes.csv, nsc-results.csv) read
                     instead of the committed ones in sources/ (default: none)
  --out DIR          the output folder (default dist/)
  --max-files N      fail when the output would hold more files (default EDU_MAX_FILES or 20000)
  --today DATE       the date verified_on may not pass (default: today in Johannesburg)
  --conflicts FILE   where to write the catalogue's conflicts report (default docs/data-conflicts.md when
                     building the project's own sources/, else none)
  --release          record a release when the records differ from the latest release (sources/releases/;
                     README "Releases and bulk files"): written only once the build is published
  --timings          the wall time of each stage of the build (load, validate, ..., write, swap)
  --verbose          every warning with its details (without it: one line per kind of warning with its
                     count, and the details in ${WARNINGS_FILE})
  --help             this text`;

function optionsOf(argv: string[]): (Partial<BuildOptions> & { verbose: boolean; showTimings: boolean }) | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      sources: { type: "string" },
      imported: { type: "string" },
      out: { type: "string" },
      "max-files": { type: "string" },
      today: { type: "string" },
      conflicts: { type: "string" },
      verbose: { type: "boolean", default: false },
      timings: { type: "boolean", default: false },
      release: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const overrides: Partial<BuildOptions> & { verbose: boolean; showTimings: boolean } = { verbose: values.verbose, showTimings: values.timings };
  if (values.release) overrides.release = new Date();
  if (values.sources) overrides.sourcesDir = path.resolve(values.sources);
  if (values.imported) overrides.importedDir = path.resolve(values.imported);
  if (values.out) overrides.outDir = path.resolve(values.out);
  if (values["max-files"] !== undefined) {
    if (!/^[1-9]\d*$/.test(values["max-files"])) throw new UsageError("--max-files takes a positive integer");
    overrides.maxFiles = Number(values["max-files"]);
  }
  if (values.today !== undefined) {
    if (!isRealDate(values.today)) throw new UsageError("--today takes a real date written YYYY-MM-DD");
    overrides.today = values.today;
  }
  const ownSources = !values.sources || path.resolve(values.sources) === path.join(ROOT, "sources");
  if (values.conflicts) overrides.conflictsReport = path.resolve(values.conflicts);
  else if (ownSources) overrides.conflictsReport = path.join(ROOT, "docs", "data-conflicts.md");
  return overrides;
}

runCommand(USAGE, async (argv) => {
  const parsed = optionsOf(argv);
  if (parsed === "help") return console.log(USAGE);
  const { verbose, showTimings, ...overrides } = parsed;
  const options = defaultBuildOptions(ROOT, overrides);
  console.log(
    `Building ${path.relative(ROOT, options.outDir) || options.outDir}/ from ${path.relative(ROOT, options.sourcesDir) || options.sourcesDir}/`,
  );
  const stages: StageTiming[] = [];
  const result = await runBuild({
    ...options,
    recyclePrevious: true,
    log: (line) => console.log(`  ${line}`),
    ...(showTimings ? { timings: stages } : {}),
  });
  const warningsFile = verbose ? null : await writeWarningsFile(ROOT, result);
  console.log(formatSummary(result, { verbose, ...(warningsFile ? { warningsFile } : {}) }));
  if (showTimings) console.log(["", "Time per stage (wall):", ...formatTimings(stages)].join("\n"));
  return result.ok ? 0 : 1;
});
