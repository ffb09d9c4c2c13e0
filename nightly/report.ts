// The rebuild's report: printed, and written as Markdown (for people and CI artifacts) and JSON (for
// scripts) whether the rebuild published, was refused or failed.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DATASETS, IMPORTERS } from "../importers/run.ts";
import type { BuildDiff } from "./diff.ts";

type RebuildStatus = "published" | "refused" | "failed";

export type RebuildReport = {
  status: RebuildStatus;
  started_at: string;
  upstream: string | null;
  /** Rows imported, by each importer's reportKey (schools, postal_codes, nsc_results); null: it had no files. */
  imported: Record<string, number | null> | null;
  /** The importers' own reports (rows kept, dropped by reason, repairs, the NSC join). */
  import_reports: string[];
  /** The committed tables in sources/ that the publication refreshed (their content changed). */
  tables_refreshed: string[];
  /** The release the publication recorded in sources/releases/; null when it published no different records, or did not publish. */
  release: string | null;
  /** Why the rebuild did not publish (refused or failed). */
  reasons: string[];
  /** Things a person should know that did not stop it (an allowed drop, a first publication). */
  notes: string[];
  diff: BuildDiff | null;
  deployed: boolean;
};

const n = (value: number | null) => (value === null ? "-" : value.toLocaleString("en"));

export function formatReport(report: RebuildReport): string {
  const lines = [`# Nightly rebuild: ${report.status.toUpperCase()}`, ""];
  lines.push(`- started: ${report.started_at}`);
  if (report.upstream) lines.push(`- upstream: ${report.upstream}`);
  if (report.imported) {
    const imported = report.imported;
    const counts = DATASETS.map((dataset) => {
      const { reportKey, rowsName, name, table } = IMPORTERS[dataset];
      const rows = imported[reportKey] ?? null;
      return rows === null ? `no ${name} files (the committed ${table} kept)` : `${n(rows)} ${rowsName}`;
    });
    lines.push(`- imported: ${counts.join(", ")}`);
  }
  if (report.status === "published") {
    lines.push(
      `- release recorded: ${report.release ?? "none"}`,
      `- committed tables refreshed: ${report.tables_refreshed.length === 0 ? "none (no change)" : report.tables_refreshed.map((t) => `sources/${t}`).join(", ")}`,
    );
  }
  if (report.diff) {
    lines.push(`- data version: ${report.diff.oldVersion ?? "(nothing published yet)"} -> ${report.diff.newVersion}`);
  }
  lines.push(`- deployed: ${report.deployed ? "yes" : "no"}`);
  if (report.reasons.length > 0) {
    lines.push("", report.status === "refused" ? "## Refused: dist/ was left as it was" : "## Failed", "");
    for (const reason of report.reasons) lines.push(`- ${reason}`);
  }
  if (report.notes.length > 0) {
    lines.push("", "## Notes", "");
    for (const note of report.notes) lines.push(`- ${note}`);
  }
  if (report.diff) {
    lines.push("", "## Records per resource", "", "| resource | before | after | added | removed | changed |", "|---|---:|---:|---:|---:|---:|");
    for (const r of report.diff.resources) {
      const changed = r.detailed ? n(r.changed) : "?";
      lines.push(`| ${r.resource} | ${n(r.oldTotal)} | ${n(r.newTotal)} | ${n(r.added)} | ${n(r.removed)} | ${changed} |`);
    }
    const withExamples = report.diff.resources.filter((r) => r.examples.added.length + r.examples.removed.length + r.examples.changed.length > 0);
    // On a first publication every record is "added": examples would say nothing.
    if (withExamples.length > 0 && report.diff.oldVersion !== null) {
      lines.push("", "## Examples (keys of records)", "");
      for (const r of withExamples) {
        for (const kind of ["added", "removed", "changed"] as const) {
          const keys = r.examples[kind];
          const total = r[kind];
          if (keys.length > 0) lines.push(`- ${r.resource} ${kind}: ${keys.join(", ")}${total > keys.length ? `, … (${n(total)} in all)` : ""}`);
        }
      }
    }
  }
  if (report.import_reports.length > 0) {
    lines.push("", "## Import reports", "", "```", ...report.import_reports.flatMap((text, i) => (i === 0 ? [text] : ["", text])), "```");
  }
  return `${lines.join("\n")}\n`;
}

/** Writes <dir>/rebuild-report.md and .json; returns their paths. */
export async function writeReport(report: RebuildReport, dir: string): Promise<{ markdown: string; json: string }> {
  await mkdir(dir, { recursive: true });
  const markdown = path.join(dir, "rebuild-report.md");
  const json = path.join(dir, "rebuild-report.json");
  await writeFile(markdown, formatReport(report));
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown, json };
}
