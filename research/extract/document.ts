// Official documents read by script (issue 26): each document is a module in documents/ that turns the text of
// the document's pages into a witness table: every programme it states, with what it says and where. The
// tables are committed (tables/<document>.csv); matches/<document>.csv says which qualification each row is;
// scripts/extract.ts runs the extraction and writes the evidence rows. Pure: no I/O here.
import { parseRequirements } from "../../domain/requirements.ts";

/** One programme as the document states it. */
export type ExtractedRow = {
  name_as_written: string;
  /** The university's programme code, as printed. */
  code: string | null;
  /** The intake the document speaks for; null when it states none. */
  intake_year: number | null;
  /** The APS minimum on the university's own scale; "none" where the document says there is none; null: says nothing. */
  min_aps: number | "none" | null;
  /** Subject requirements in the compact form of sources/README.md; "none"; null: says nothing. */
  requirements: string | null;
  /** Where: the PDF page (1-based, as a viewer counts) or, for a text copy, the line. */
  page: number | null;
  line: number | null;
  /** script: read by the document's module; hand: read by a person (hand/<document>.csv). */
  read_by: "script" | "hand";
  note: string | null;
};

export type OfficialDocument = {
  /** e.g. up-prospectus-2026; the witness id in sources/witnesses/ unless `witness_id` says otherwise. */
  id: string;
  university_slug: string;
  witness_id: string;
  /** Where the copy read is kept: a public repository at a fixed commit. */
  repository: string;
  commit: string;
  path: string;
  /** SHA-256 of the file at that commit: the extraction refuses any other bytes. */
  sha256: string;
  /** pdf: read with `pdftotext -layout` and split into pages at form feeds; text: a text copy, read as it is. */
  format: "pdf" | "text";
  intake_year: number | null;
  /** The document's text, one string per page (a text copy is one page); returns every programme it states. */
  extract(pages: readonly string[]): ExtractedRow[];
};

export const EXTRACTED_COLUMNS = ["name_as_written", "code", "intake_year", "min_aps", "requirements", "page", "line", "read_by", "note"] as const;

/** The address of one place in the document: #page=N in a PDF, #LN in a text copy. */
export function documentUrl(document: Pick<OfficialDocument, "repository" | "commit" | "path">, row: Pick<ExtractedRow, "page" | "line">): string {
  const file = document.path.split("/").map(encodeURIComponent).join("/");
  const base = `https://github.com/${document.repository}/blob/${document.commit}/${file}`;
  if (row.line !== null) return `${base}#L${row.line}`;
  if (row.page !== null) return `${base}#page=${row.page}`;
  throw new Error(`${document.path}: a row has neither page nor line`);
}

/** What is wrong with a row, or null: the same cell rules as sources/evidence/*.csv. */
export function rowProblem(row: ExtractedRow): string | null {
  if (row.name_as_written.trim() === "") return "an empty name";
  if (row.page === null && row.line === null) return `${row.name_as_written}: no page or line`;
  if (row.requirements !== null) {
    const parsed = parseRequirements(row.requirements);
    if (parsed && !parsed.ok) return `${row.name_as_written}: requirements "${row.requirements}": ${parsed.message}`;
  }
  if (typeof row.min_aps === "number" && !(Number.isInteger(row.min_aps) && row.min_aps >= 0)) return `${row.name_as_written}: min_aps ${row.min_aps}`;
  return null;
}

/** Splits pdftotext output into pages (form feeds); page i+1 is element i. */
export function splitPages(text: string): string[] {
  const pages = text.split("\f");
  if (pages.length > 1 && pages[pages.length - 1]?.trim() === "") pages.pop();
  return pages;
}
