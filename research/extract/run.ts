// Running the extractions: read an official document's copy (checked against its SHA-256), extract its rows,
// add the rows read by hand, write the witness table; and turn a table plus its matches into evidence rows of
// sources/evidence/<university>.csv (replacing that witness's earlier rows). Node only.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "csv-parse/sync";
import { toCsv, type CellValue } from "../../importers/output.ts";
import { writeFileAtomically } from "../../lib/write-atomically.ts";
import { documentUrl, EXTRACTED_COLUMNS, type ExtractedRow, type OfficialDocument, rowProblem, splitPages } from "./document.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const TABLES_DIR = path.join(HERE, "tables");
const MATCHES_DIR = path.join(HERE, "matches");
const HAND_DIR = path.join(HERE, "hand");

/** Every document module in documents/, by id. */
export async function loadDocuments(): Promise<Map<string, OfficialDocument>> {
  const documents = new Map<string, OfficialDocument>();
  for (const name of readdirSync(path.join(HERE, "documents")).filter((n) => n.endsWith(".ts")).sort()) {
    const module = (await import(pathToFileURL(path.join(HERE, "documents", name)).href)) as { document: OfficialDocument };
    if (documents.has(module.document.id)) throw new Error(`documents/${name}: id ${module.document.id} is used twice`);
    documents.set(module.document.id, module.document);
  }
  return documents;
}

const readCsv = (file: string): Record<string, string>[] => parse(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true, bom: true });

function rowOfCells(cells: Record<string, string>, readBy: ExtractedRow["read_by"]): ExtractedRow {
  const number = (text: string | undefined) => (text ? Number(text) : null);
  const aps = cells.min_aps ?? "";
  return {
    name_as_written: cells.name_as_written ?? "",
    code: cells.code || null,
    intake_year: number(cells.intake_year),
    min_aps: aps === "" ? null : aps === "none" ? "none" : Number(aps),
    requirements: cells.requirements || null,
    page: number(cells.page),
    line: number(cells.line),
    read_by: readBy,
    note: cells.note || null,
  };
}

/** The rows a person read from the document (hand/<id>.csv), where a layout defeats the script. */
function handRows(documentId: string): ExtractedRow[] {
  const file = path.join(HAND_DIR, `${documentId}.csv`);
  return existsSync(file) ? readCsv(file).map((cells) => rowOfCells(cells, "hand")) : [];
}

/** The committed witness table of a document. */
export function readTable(documentId: string): ExtractedRow[] {
  return readCsv(path.join(TABLES_DIR, `${documentId}.csv`)).map((cells) => rowOfCells(cells, cells.read_by === "hand" ? "hand" : "script"));
}

export class UnreadableDocument extends Error {}

/** The document's pages, from its copy in `directory` (named as in the repository), after checking its bytes. */
export function readPages(document: OfficialDocument, directory: string): string[] {
  const file = path.join(directory, path.basename(document.path));
  if (!existsSync(file)) throw new UnreadableDocument(`${document.id}: ${file} is not there`);
  const bytes = readFileSync(file);
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== document.sha256) throw new UnreadableDocument(`${document.id}: ${file} has SHA-256 ${digest}, not ${document.sha256}`);
  if (document.format === "text") return [bytes.toString("utf8")];
  try {
    return splitPages(execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8"));
  } catch (error) {
    throw new UnreadableDocument(`${document.id}: pdftotext (Debian's poppler-utils) failed: ${(error as Error).message}`);
  }
}

/** Extracts the document's rows and adds the hand-read ones; throws on any row the evidence table would refuse. */
export function extractRows(document: OfficialDocument, pages: readonly string[]): ExtractedRow[] {
  const rows = [...document.extract(pages), ...handRows(document.id)];
  const problems = rows.map(rowProblem).filter((p): p is string => p !== null);
  if (problems.length > 0) throw new Error(`${document.id}: ${problems.length} bad rows:\n  ${problems.join("\n  ")}`);
  return rows;
}

const cellsOf = (row: ExtractedRow): Record<(typeof EXTRACTED_COLUMNS)[number], CellValue> => ({ ...row, min_aps: row.min_aps === null ? null : String(row.min_aps) });

export async function writeTable(documentId: string, rows: readonly ExtractedRow[]): Promise<string> {
  const file = path.join(TABLES_DIR, `${documentId}.csv`);
  await writeFileAtomically(file, toCsv(EXTRACTED_COLUMNS, rows.map(cellsOf)));
  return file;
}

const EVIDENCE_COLUMNS = ["qualification_id", "witness_id", "intake_year", "name_as_written", "min_aps", "requirements", "source_url", "verified_on", "note"] as const;
type EvidenceCells = Record<(typeof EVIDENCE_COLUMNS)[number], string>;

/** Which table row each matched qualification is: matches/<id>.csv (qualification_id, name_as_written, code, and page or line). */
function matchesOf(documentId: string): { qualification_id: string; key: string }[] {
  const file = path.join(MATCHES_DIR, `${documentId}.csv`);
  if (!existsSync(file)) throw new Error(`${documentId}: no matches/${documentId}.csv`);
  return readCsv(file).map((m) => ({ qualification_id: m.qualification_id ?? "", key: rowKey(m.name_as_written ?? "", m.code ?? "", m.page || m.line || "") }));
}

const rowKey = (name: string, code: string | null, page: string | number | null) => `${name}\u0000${code ?? ""}\u0000${page ?? ""}`;

export type Applied = { evidenceFile: string; written: number; unmatchedRows: ExtractedRow[]; unknownMatches: string[] };

/** Writes the document's evidence rows into sources/evidence/<university>.csv, replacing that witness's rows. */
export async function applyDocument(document: OfficialDocument, sourcesDir: string, verifiedOn: string): Promise<Applied> {
  const rows = readTable(document.id);
  const byKey = new Map(rows.map((r) => [rowKey(r.name_as_written, r.code, r.page ?? r.line), r]));
  const matches = matchesOf(document.id);
  const unknownMatches = matches.filter((m) => !byKey.has(m.key)).map((m) => `${m.qualification_id}: ${m.key.replaceAll("\u0000", " / ")}`);
  const matchedKeys = new Set(matches.map((m) => m.key));
  const evidenceFile = path.join(sourcesDir, "evidence", `${document.university_slug}.csv`);
  const kept = readCsv(evidenceFile).filter((e) => e.witness_id !== document.witness_id) as EvidenceCells[];
  const added: EvidenceCells[] = matches.flatMap((m) => {
    const row = byKey.get(m.key);
    if (!row) return [];
    const read = row.read_by === "hand" ? "read by hand" : null;
    return [
      {
        qualification_id: m.qualification_id,
        witness_id: document.witness_id,
        intake_year: row.intake_year === null ? "" : String(row.intake_year),
        name_as_written: row.name_as_written,
        min_aps: row.min_aps === null ? "" : String(row.min_aps),
        requirements: row.requirements ?? "",
        source_url: documentUrl(document, row),
        verified_on: verifiedOn,
        note: [row.note, read].filter(Boolean).join("; "),
      },
    ];
  });
  await writeFileAtomically(evidenceFile, toCsv(EVIDENCE_COLUMNS, [...kept, ...added]));
  return { evidenceFile, written: added.length, unmatchedRows: rows.filter((r) => !matchedKeys.has(rowKey(r.name_as_written, r.code, r.page ?? r.line))), unknownMatches };
}
