// The official documents' extractions (issue 26): each document's module on a fixture (pages of each layout it
// handles, with the rows expected from them); on the real documents when EDU_DOCUMENTS_DIR holds them (the
// committed table is what the extraction gives); and the committed tables and matches agree with sources/.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { rowProblem } from "../../research/extract/document.ts";
import { extractRows, loadDocuments, readPages, readTable } from "../../research/extract/run.ts";
import { ROOT } from "../../support/test-dataset.ts";

const documents = await loadDocuments();
const FIXTURES = path.join(ROOT, "test", "fixtures", "extract");
const DOCUMENTS_DIR = process.env.EDU_DOCUMENTS_DIR;

/** A fixture's pages: page-<N>.txt is page N of a PDF; from-line-<N>.txt an excerpt of a text copy from line N. */
function fixturePages(dir: string): string[] {
  const pages: string[] = [];
  let text = "";
  for (const name of readdirSync(dir)) {
    const page = /^page-(\d+)\.txt$/.exec(name);
    const line = /^from-line-(\d+)\.txt$/.exec(name);
    if (page) pages[Number(page[1]) - 1] = readFileSync(path.join(dir, name), "utf8");
    if (line) text += `${"\n".repeat(Number(line[1]) - 1 - (text.match(/\n/g)?.length ?? 0))}${readFileSync(path.join(dir, name), "utf8")}`;
  }
  return text ? [text] : Array.from(pages, (p) => p ?? "");
}

const csv = (file: string): Record<string, string>[] => parse(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true });

describe.each([...documents.values()])("official document $id", (document) => {
  const fixture = path.join(FIXTURES, document.id);

  it("has a fixture of each layout it handles, and extracts the expected rows from it", () => {
    expect(existsSync(path.join(fixture, "expected.csv")), `${fixture}/expected.csv`).toBe(true);
    const got = document.extract(fixturePages(fixture)).map((r) => ({
      ...r,
      min_aps: r.min_aps === null ? "" : String(r.min_aps),
      code: r.code ?? "",
      intake_year: r.intake_year === null ? "" : String(r.intake_year),
      requirements: r.requirements ?? "",
      page: r.page === null ? "" : String(r.page),
      line: r.line === null ? "" : String(r.line),
      note: r.note ?? "",
    }));
    expect(got).toEqual(csv(path.join(fixture, "expected.csv")));
  });

  it("has a committed table whose rows the evidence table accepts", () => {
    const rows = readTable(document.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map(rowProblem).filter(Boolean)).toEqual([]);
  });

  it("matches only qualifications of its university, each at most once", () => {
    const file = path.join(ROOT, "research", "extract", "matches", `${document.id}.csv`);
    if (!existsSync(file)) return;
    const ids = new Set(csv(path.join(ROOT, "sources", "qualifications", `${document.university_slug}.csv`)).map((q) => q.id));
    const matched = csv(file).map((m) => m.qualification_id);
    expect(matched.filter((id) => !ids.has(id ?? ""))).toEqual([]);
    expect(matched.length).toBe(new Set(matched).size);
  });

  it.skipIf(!DOCUMENTS_DIR)("gives the committed table from the real document (EDU_DOCUMENTS_DIR)", () => {
    const file = path.join(DOCUMENTS_DIR ?? "", path.basename(document.path));
    if (!existsSync(file)) return void console.warn(`skipped: ${file} is not in EDU_DOCUMENTS_DIR`);
    expect(extractRows(document, readPages(document, DOCUMENTS_DIR ?? ""))).toEqual(readTable(document.id));
  });
});

if (!DOCUMENTS_DIR) console.warn("extract.test.ts: EDU_DOCUMENTS_DIR is not set, so the extractions are tested on their fixtures only");
