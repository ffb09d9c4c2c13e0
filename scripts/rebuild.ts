// `npm run rebuild [-- options]`: the nightly job (nightly/rebuild.ts). Exits 0 when it published,
// 1 when the guard refused or a step failed (dist/ unchanged), 2 for a usage error.
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand, UsageError } from "../lib/cli.ts";
import { ROOT } from "../lib/root.ts";
import { formatReport } from "../nightly/report.ts";
import { runRebuild, type RebuildOptions } from "../nightly/rebuild.ts";

const USAGE = `usage: npm run rebuild -- [--deploy] [--allow-drop] [--max-drop SHARE] [--config FILE]
                           [--upstream DIR] [--sources DIR] [--out DIR] [--report DIR]

  --deploy         after publishing into dist/, deploy it (wrangler deploy --env live)
  --allow-drop     publish even when a resource loses more than the allowed share of its records
  --max-drop SHARE the allowed share, 0 to 1 (default: guard.max_drop_share in the config, 0.1)
  --config FILE    upstream config (default nightly/upstream.json)
  --upstream DIR   a folder with schools/, postal-codes/ and nsc/ instead of downloading (default: EDU_UPSTREAM_DIR)
  --sources DIR    the sources to build; its national tables are refreshed on publication (default sources/)
  --report DIR     where rebuild-report.md and .json are written (default .rebuild/)`;

function rebuildOptionsOf(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RebuildOptions | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      deploy: { type: "boolean", default: false },
      "allow-drop": { type: "boolean", default: false },
      "max-drop": { type: "string" },
      config: { type: "string" },
      upstream: { type: "string" },
      sources: { type: "string" },
      out: { type: "string" },
      report: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const options: RebuildOptions = {
    root: ROOT,
    configFile: path.resolve(values.config ?? path.join(ROOT, "nightly", "upstream.json")),
    upstreamDir: values.upstream ? path.resolve(values.upstream) : env.EDU_UPSTREAM_DIR?.trim() || undefined,
    sourcesDir: path.resolve(values.sources ?? path.join(ROOT, "sources")),
    outDir: path.resolve(values.out ?? path.join(ROOT, "dist")),
    reportDir: path.resolve(values.report ?? path.join(ROOT, ".rebuild")),
    allowDrop: values["allow-drop"],
    deploy: values.deploy,
  };
  if (values["max-drop"] !== undefined) {
    const share = Number(values["max-drop"]);
    if (!/^\d*\.?\d+$/.test(values["max-drop"]) || share > 1)
      throw new UsageError(`--max-drop must be a share from 0 to 1 (0.1 = 10%), not "${values["max-drop"]}"`);
    options.maxDropShare = share;
  }
  return options;
}

runCommand(`${USAGE}\n  --help           this text`, async (argv) => {
  const options = rebuildOptionsOf(argv);
  if (options === "help") return console.log(`${USAGE}\n  --help           this text`);
  const result = await runRebuild({ ...options, log: (line) => console.log(`  ${line}`) });
  console.log(`\n${formatReport(result)}`);
  console.log(`report written to ${path.relative(ROOT, result.reportFiles.markdown)} and ${path.relative(ROOT, result.reportFiles.json)}`);
  return result.status === "published" ? 0 : 1;
});
