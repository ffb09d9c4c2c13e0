// The import command's arguments (npm run import, scripts/import.ts), parsed with node:util parseArgs: which
// dataset, which files, where to write, and the verified_on date. A usage problem is a UsageError.
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "../lib/cli.ts";
import { isRealDate } from "../lib/dates.ts";
import { DATASETS, DEFAULT_OUT_DIR, type Dataset, IMPORTERS, type ImportOptions } from "./run.ts";

export { UsageError };

export type CliCommand =
  | { kind: "help" }
  | ({ kind: "import" } & ImportOptions)
  | { kind: "all"; folder: string; outDir: string; verifiedOn: string };

/** node:util parseArgs on the command's options; a malformed option is a UsageError. */
function parseOptions(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: "string" },
        "verified-on": { type: "string" },
        schools: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0] : String(error));
  }
}

export function parseCommand(argv: readonly string[], today: string): CliCommand {
  const { values, positionals } = parseOptions(argv);
  if (values.help) return { kind: "help" };
  const [dataset, ...inputs] = positionals;
  if (dataset !== "all" && !DATASETS.includes(dataset as Dataset)) {
    throw new UsageError(dataset === undefined ? "name a dataset" : `unknown dataset "${dataset}"`);
  }
  const outDir = values.out === undefined ? DEFAULT_OUT_DIR : path.resolve(values.out);
  const verifiedOn = values["verified-on"] ?? today;
  if (!isRealDate(verifiedOn)) throw new UsageError(`--verified-on must be a real date written YYYY-MM-DD, not "${verifiedOn}"`);
  if (verifiedOn > today) throw new UsageError(`--verified-on ${verifiedOn} is in the future (today is ${today})`);
  const importer = dataset === "all" ? null : IMPORTERS[dataset as Dataset];
  if (values.schools !== undefined && !importer?.arguments.takesSchools) {
    const takers = DATASETS.filter((d) => IMPORTERS[d].arguments.takesSchools).join(", ");
    throw new UsageError(`--schools goes with the ${takers} dataset only`);
  }
  if (dataset === "all") {
    if (inputs.length !== 1) throw new UsageError("all takes exactly one folder (with schools/, postal-codes/ and nsc/)");
    return { kind: "all", folder: path.resolve(inputs[0] as string), outDir, verifiedOn };
  }
  if (inputs.length === 0) throw new UsageError(`name the ${dataset} file(s) to import`);
  if (importer?.arguments.oneFile && inputs.length !== 1) throw new UsageError(`${dataset} takes exactly one file`);
  return { kind: "import", dataset: dataset as Dataset, inputs, outDir, verifiedOn, ...(values.schools ? { schools: values.schools } : {}) };
}

/** The import options of a single-dataset command (what the tests of each importer check). */
export function parseArguments(argv: readonly string[], today: string): ImportOptions {
  const command = parseCommand(argv, today);
  if (command.kind !== "import") throw new UsageError(`expected one dataset, not ${command.kind}`);
  const { kind: _kind, ...options } = command;
  return options;
}
