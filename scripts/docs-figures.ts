// npm run docs:figures [-- --check]: builds the committed sources into a temporary folder and writes the
// figures it gives (records, files, bytes, coverage) into README.md between its <!--fig:NAME--> markers
// (build/figures.ts), and the data dictionary into docs/data-dictionary.md (schema/dictionary.ts). --check changes
// nothing and exits 1 when a figure or the dictionary is stale.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { applyFigures, buildFigures } from "../build/figures.ts";
import { defaultBuildOptions, formatSummary, runBuild } from "../build/index.ts";
import { runCommand } from "../lib/cli.ts";
import { ROOT } from "../lib/root.ts";
import { DICTIONARY_PAGE, dataDictionary, dictionaryMarkdown } from "../schema/dictionary.ts";

const USAGE = `usage: npm run docs:figures [-- --check]

Builds sources/ into a temporary folder and writes the figures of that build into README.md, between its
<!--fig:NAME--> markers, and the data dictionary (from the zod schemas) into ${DICTIONARY_PAGE}. --check writes
nothing and exits 1 when either is stale.`;

runCommand(USAGE, async (argv) => {
  const { values } = parseArgs({ args: argv, options: { check: { type: "boolean", default: false }, help: { type: "boolean", default: false } } });
  if (values.help) return console.log(USAGE);
  const dictionaryFile = path.join(ROOT, DICTIONARY_PAGE);
  const dictionary = dictionaryMarkdown(dataDictionary());
  if ((await readFile(dictionaryFile, "utf8").catch(() => "")) !== dictionary) {
    if (values.check) {
      console.error(`${DICTIONARY_PAGE} is stale: run npm run docs:figures`);
      return 1;
    }
    await writeFile(dictionaryFile, dictionary);
    console.log(`${DICTIONARY_PAGE} written.`);
  }
  const outDir = await mkdtemp(path.join(os.tmpdir(), "docs-figures-"));
  try {
    const result = await runBuild(defaultBuildOptions(ROOT, { outDir: path.join(outDir, "dist") }));
    if (!result.ok) throw new Error(`the build failed, so there are no figures:${formatSummary(result)}`);
    const figures = await buildFigures(result.model, result.conflicts, result.today, path.join(outDir, "dist"));
    const file = path.join(ROOT, "README.md");
    const readme = await readFile(file, "utf8");
    const updated = applyFigures(readme, figures);
    if (updated === readme) return console.log("README.md's figures are current.");
    if (values.check) {
      console.error("README.md's figures are stale: run npm run docs:figures");
      return 1;
    }
    await writeFile(file, updated);
    console.log("README.md's figures updated.");
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
