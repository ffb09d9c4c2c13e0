// `npm run import`: the command line of the importers (importers/run.ts does the work). Turns the official
// national files into the committed tables in sources/ (high-schools.csv, postal-codes.csv, nsc-results.csv).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { todayInJohannesburg } from "../lib/dates.ts";
import { UnreadableFileError } from "../importers/read-table.ts";
import { parseCommand, UsageError } from "../importers/command.ts";
import { importNational, InputError, runImport } from "../importers/run.ts";
import { localUpstream } from "../nightly/upstream.ts";
import { DBE_SOURCE_URL } from "../importers/schools.ts";
import { SAPO_SOURCE_URL } from "../importers/postal-codes.ts";
import { NSC_SOURCE_URL } from "../importers/nsc.ts";

export const USAGE = `usage:
  npm run import -- schools <file-or-folder...>       [--out DIR] [--verified-on YYYY-MM-DD]
  npm run import -- postal-codes <file>               [--out DIR] [--verified-on YYYY-MM-DD]
  npm run import -- nsc <file-or-folder...> [--schools <masterlist file-or-folder>]... [--out DIR] [--verified-on YYYY-MM-DD]
  npm run import -- all <folder>                      [--out DIR] [--verified-on YYYY-MM-DD]
  npm run import -- --help

schools       DBE EMIS masterlist: the provincial .xlsx workbooks and/or the national ;-separated CSV
              (${DBE_SOURCE_URL}) -> high-schools.csv
postal-codes  SAPO postal code list as CSV or .xlsx; SAPO's own .xls must be saved as CSV or .xlsx first
              (${SAPO_SOURCE_URL}) -> postal-codes.csv
nsc           DBE NSC School Performance Report: the JSON transcription, or the CSV/.xlsx with one row per
              school and year columns (${NSC_SOURCE_URL}) -> nsc-results.csv. Its schools are
              classified against the masterlist given with --schools, else against <out>/high-schools.csv
all           a folder laid out like ../shared/data (schools/, postal-codes/, nsc/): all three, the NSC report
              classified against the masterlist

--out DIR              where the tables are written (default: sources/, the committed tables)
--verified-on DATE     the verified_on of every row (default: today in Johannesburg); the same files and date
                       give byte-identical tables`;

async function main(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommand(argv, todayInJohannesburg(new Date()));
    if (command.kind === "help") {
      console.log(USAGE);
      return 0;
    }
    if (command.kind === "all") {
      const result = await importNational(await localUpstream(command.folder), command.outDir, command.verifiedOn);
      console.log(
        Object.values(result)
          .flatMap((r) => (r ? [r.reportText] : []))
          .join("\n\n"),
      );
      return 0;
    }
    console.log((await runImport(command)).reportText);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`import: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof UnreadableFileError || error instanceof InputError) {
      console.error(`import stopped, nothing written: ${error.message}`);
      return 1;
    }
    console.error(`import failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
