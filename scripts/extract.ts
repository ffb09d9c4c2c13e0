// npm run extract [-- options] [DOCUMENT ...]: official documents -> witness tables -> evidence rows (issue 26).
import path from "node:path";
import { parseArgs } from "node:util";
import { runCommand, UsageError } from "../lib/cli.ts";
import { ROOT } from "../lib/root.ts";
import { applyDocument, extractRows, loadDocuments, readPages, UnreadableDocument, writeTable } from "../research/extract/run.ts";

const USAGE = `usage: npm run extract -- [--documents DIR] [--apply] [--sources DIR] [--verified-on DATE] [DOCUMENT ...]

Reads each official document (all of research/extract/documents/ when none is named) from DIR, checks its
SHA-256, extracts every programme it states and writes research/extract/tables/<document>.csv. Documents not in
DIR are named with the reason and skipped.
  --documents DIR     the folder holding the documents' copies, named as in their repository
                      (default EDU_DOCUMENTS_DIR)
  --apply             instead: write each table's matched rows (research/extract/matches/<document>.csv) as
                      evidence rows into sources/evidence/<university>.csv, replacing that witness's rows
  --sources DIR       with --apply: the sources folder (default sources/)
  --verified-on DATE  with --apply: the date the rows were read (default today)
  --help              this text`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      documents: { type: "string" },
      apply: { type: "boolean", default: false },
      sources: { type: "string" },
      "verified-on": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const documents = await loadDocuments();
  for (const id of positionals) if (!documents.has(id)) throw new UsageError(`unknown document "${id}" (known: ${[...documents.keys()].join(", ")})`);
  const chosen = positionals.length > 0 ? positionals.map((id) => documents.get(id)).filter((d) => d !== undefined) : [...documents.values()];

  if (values.apply) {
    const sources = path.resolve(values.sources ?? path.join(ROOT, "sources"));
    const verifiedOn = values["verified-on"] ?? new Date().toISOString().slice(0, 10);
    let failed = false;
    for (const document of chosen) {
      const applied = await applyDocument(document, sources, verifiedOn);
      console.log(
        `${document.id}: ${applied.written} evidence rows -> ${path.relative(ROOT, applied.evidenceFile)}; ${applied.unmatchedRows.length} rows of the table match no qualification`,
      );
      for (const m of applied.unknownMatches) console.error(`  a match names no row of the table: ${m}`);
      failed ||= applied.unknownMatches.length > 0;
    }
    return failed ? 1 : 0;
  }

  const directory = values.documents ?? process.env.EDU_DOCUMENTS_DIR;
  if (!directory) throw new UsageError("say where the documents are: --documents DIR or EDU_DOCUMENTS_DIR");
  let unreadable = 0;
  for (const document of chosen) {
    try {
      const rows = extractRows(document, readPages(document, path.resolve(directory)));
      const file = await writeTable(document.id, rows);
      const byHand = rows.filter((r) => r.read_by === "hand").length;
      console.log(`${document.id}: ${rows.length} programmes (${byHand} read by hand) -> ${path.relative(ROOT, file)}`);
    } catch (error) {
      if (!(error instanceof UnreadableDocument)) throw error;
      unreadable += 1;
      console.error(`not read: ${error.message}`);
    }
  }
  return unreadable > 0 && positionals.length > 0 ? 1 : 0;
}

runCommand(USAGE, main);
