import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadDocuments } from "./research/extract/run.ts";
import { toCsv } from "./importers/output.ts";
import { EXTRACTED_COLUMNS } from "./research/extract/document.ts";
const id = process.argv[2] as string;
const doc = (await loadDocuments()).get(id)!;
const dir = path.join("test/fixtures/extract", id);
const pages: string[] = [];
for (const name of readdirSync(dir)) {
  const m = /^page-(\d+)\.txt$/.exec(name);
  if (m) pages[Number(m[1]) - 1] = readFileSync(path.join(dir, name), "utf8");
}
const rows = doc.extract(Array.from(pages, (p) => p ?? ""));
writeFileSync(
  path.join(dir, "expected.csv"),
  toCsv(
    EXTRACTED_COLUMNS,
    rows.map((r) => ({ ...r, min_aps: r.min_aps === null ? null : String(r.min_aps) })),
  ),
);
