// `npm run rebuild [-- options]`: the nightly job (nightly/rebuild.ts). Exits 0 when it published,
// 1 when the guard refused or a step failed (dist/ unchanged), 2 for a usage error.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatReport } from "../nightly/report.ts";
import { runRebuild, type RebuildOptions } from "../nightly/rebuild.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `usage: npm run rebuild -- [--deploy] [--allow-drop] [--max-drop SHARE] [--config FILE]
                           [--upstream DIR] [--sources DIR] [--out DIR] [--report DIR]

  --deploy         after publishing into dist/, deploy it (wrangler deploy --env live)
  --allow-drop     publish even when a resource loses more than the allowed share of its records
  --max-drop SHARE the allowed share, 0 to 1 (default: guard.max_drop_share in the config, 0.1)
  --config FILE    upstream config (default nightly/upstream.json)
  --upstream DIR   a folder with schools/, postal-codes/ and nsc/ instead of downloading (default: EDU_UPSTREAM_DIR)
  --sources DIR    the sources to build; its national tables are refreshed on publication (default sources/)
  --report DIR     where rebuild-report.md and .json are written (default .rebuild/)`;

class UsageError extends Error {}

export function parseRebuildArguments(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RebuildOptions {
  const sourcesDefault = path.join(ROOT, "sources");
  const options: RebuildOptions = {
    root: ROOT,
    configFile: path.join(ROOT, "nightly", "upstream.json"),
    upstreamDir: env.EDU_UPSTREAM_DIR?.trim() || undefined,
    sourcesDir: sourcesDefault,
    outDir: path.join(ROOT, "dist"),
    reportDir: path.join(ROOT, ".rebuild"),
    allowDrop: false,
    deploy: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === "--deploy") options.deploy = true;
    else if (flag === "--allow-drop") options.allowDrop = true;
    else if (["--max-drop", "--config", "--upstream", "--sources", "--out", "--report"].includes(flag)) {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      if (flag === "--max-drop") {
        const share = Number(value);
        if (!/^\d*\.?\d+$/.test(value) || share > 1) throw new UsageError(`--max-drop must be a share from 0 to 1 (0.1 = 10%), not "${value}"`);
        options.maxDropShare = share;
      } else if (flag === "--config") options.configFile = path.resolve(value);
      else if (flag === "--upstream") options.upstreamDir = path.resolve(value);
      else if (flag === "--sources") options.sourcesDir = path.resolve(value);
      else if (flag === "--out") options.outDir = path.resolve(value);
      else options.reportDir = path.resolve(value);
    } else throw new UsageError(`unknown option ${flag}`);
  }
  return options;
}

async function main(argv: readonly string[]): Promise<number> {
  let options: RebuildOptions;
  try {
    options = parseRebuildArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`rebuild: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const result = await runRebuild({ ...options, log: (line) => console.log(`  ${line}`) });
  console.log(`\n${formatReport(result)}`);
  console.log(`report written to ${path.relative(ROOT, result.reportFiles.markdown)} and ${path.relative(ROOT, result.reportFiles.json)}`);
  return result.status === "published" ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
