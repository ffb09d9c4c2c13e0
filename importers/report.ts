// The import reports, as printed by `npm run import` and kept in the nightly rebuild's report: rows read and
// kept per file, dropped rows by reason, repairs by kind, and for the NSC results the join to the schools.
import { NULLED_OUTCOMES, REPAIRED_OUTCOMES } from "./coordinates.ts";
import type { NscReport } from "./nsc.ts";
import type { PostalCodesReport } from "./postal-codes.ts";
import type { SchoolsReport } from "./schools.ts";

const count = (n: number) => n.toLocaleString("en-ZA").replace(/\u00a0/g, " ");

function sortedEntries(counts: Record<string, number | undefined>): [string, number][] {
  return Object.entries(counts)
    .filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const where = (file: { file: string; sheet: string | null }) => (file.sheet === null ? file.file : `${file.file} [${file.sheet}]`);

export function formatSchoolsReport(report: SchoolsReport, outputFile: string, seconds: number): string {
  const lines = ["DBE schools masterlist"];
  for (const file of report.files) {
    const problem = file.missingColumns.length > 0 ? `  UNUSABLE: no column for ${file.missingColumns.join(", ")}` : "";
    lines.push(`  ${where(file)}: ${count(file.rowsRead)} rows read, ${count(file.kept)} kept${problem}`);
  }
  const droppedTotal = Object.values(report.dropped).reduce((sum, n) => sum + n, 0);
  lines.push(`  total: ${count(report.rowsRead)} rows read, ${count(report.kept)} kept, ${count(droppedTotal)} dropped`);
  lines.push("  dropped, by reason:");
  for (const [reason, n] of sortedEntries(report.dropped)) lines.push(`    ${count(n).padStart(7)}  ${reason}`);
  lines.push("  coordinates of kept rows:");
  lines.push(`    ${count(report.coordinates.ok ?? 0).padStart(7)}  usable as published`);
  for (const outcome of REPAIRED_OUTCOMES) {
    lines.push(`    ${count(report.coordinates[outcome] ?? 0).padStart(7)}  repaired: ${outcome.replace(/_/g, " ")}`);
  }
  for (const outcome of NULLED_OUTCOMES) {
    lines.push(`    ${count(report.coordinates[outcome] ?? 0).padStart(7)}  set to null: ${outcome.replace(/_/g, " ")}`);
  }
  const repairs = report.textRepairs;
  lines.push(
    `  characters repaired (halfwidth katakana for Windows-1252 letters; accented letters left small in capitals) in ${count(repairs.names)} names, ${count(repairs.districts)} districts:`,
  );
  for (const [kind, n] of sortedEntries(repairs.byKind)) lines.push(`    ${count(n).padStart(7)}  ${kind}`);
  for (const [char, n] of sortedEntries(repairs.unrepaired))
    lines.push(`    ${count(n).padStart(7)}  LEFT AS IS: ${char} (no letter to repair it to)`);
  lines.push(`  wrote ${count(report.kept)} rows to ${outputFile} in ${seconds.toFixed(2)} s`);
  return lines.join("\n");
}

export function formatPostalReport(report: PostalCodesReport, outputFile: string, seconds: number): string {
  const lines = ["SAPO postal code list"];
  for (const file of report.files) {
    const problem = file.missingColumns.length > 0 ? `  (no column for ${file.missingColumns.join(", ")})` : "";
    lines.push(`  ${where(file)}: ${count(file.rowsRead)} rows read${problem}`);
  }
  const droppedTotal = Object.values(report.dropped).reduce((sum, n) => sum + n, 0);
  lines.push(
    `  total: ${count(report.rowsRead)} rows read, ${count(report.kept)} kept, ` +
      `${count(report.duplicatesMerged)} exact duplicates merged, ${count(droppedTotal)} dropped`,
  );
  for (const [reason, n] of sortedEntries(report.dropped)) lines.push(`    ${count(n).padStart(7)}  dropped: ${reason}`);
  if (report.invalidCodes > 0) lines.push(`    ${count(report.invalidCodes).padStart(7)}  rows with a code cell that is not 1-4 digits (ignored)`);
  lines.push("  province derived from the code range (approximate):");
  for (const [province, n] of sortedEntries(report.byProvince)) lines.push(`    ${count(n).padStart(7)}  ${province}`);
  lines.push(`  wrote ${count(report.kept)} rows to ${outputFile} in ${seconds.toFixed(2)} s`);
  return lines.join("\n");
}

const JOIN_LABELS = {
  matched: "matched to a published high school",
  closed: "in the masterlist but closed (status not open)",
  not_secondary: "in the masterlist but not secondary or combined",
  other: "in the masterlist but dropped for another reason",
  unknown: "unknown EMIS number (in no masterlist file: closed since, renumbered or mistyped)",
} as const;

export function formatNscReport(report: NscReport, outputFile: string, seconds: number): string {
  const lines = ["NSC School Performance Report"];
  for (const file of report.files) {
    const problem = file.missingColumns.length > 0 ? `  UNUSABLE: no column for ${file.missingColumns.join(", ")}` : "";
    const years = file.years.length > 0 ? `years ${file.years.join(", ")}` : "no years";
    lines.push(
      `  ${where(file)} (${file.layout === "json" ? "JSON" : "one row per school"}, ${years}): ${count(file.schoolsRead)} schools read${problem}`,
    );
  }
  lines.push(
    `  total: ${count(report.schoolsRead)} schools read, ${count(report.schoolsKept)} with results, ${count(report.rows)} school-years kept`,
  );
  lines.push(
    `  EMIS numbers: ${count(report.emis.straySpaces)} with stray spaces removed, ${count(report.emis.leadingZerosRestored)} with leading zeros restored`,
  );
  if (Object.keys(report.droppedSchools).length > 0) {
    lines.push("  schools dropped, by reason:");
    for (const [reason, n] of sortedEntries(report.droppedSchools)) lines.push(`    ${count(n).padStart(7)}  ${reason}`);
  }
  lines.push(`  school-years: ${count(report.blankYears)} blank (the school did not write that year)`);
  if (Object.keys(report.droppedYears).length > 0) {
    lines.push("  school-years dropped, by reason:");
    for (const [reason, n] of sortedEntries(report.droppedYears)) lines.push(`    ${count(n).padStart(7)}  ${reason}`);
  }
  const p = report.percentage;
  lines.push("  pass rates recomputed from wrote and passed; the published percentage:");
  lines.push(`    ${count(p.agreeing).padStart(7)}  agrees`);
  lines.push(`    ${count(p.roundingStep).padStart(7)}  differs by a rounding step at a tie (the recomputed rate is published)`);
  lines.push(
    `    ${count(p.disagreeing).padStart(7)}  DISAGREES beyond rounding (the recomputed rate is published)${p.examples.length > 0 ? `, e.g. ${p.examples.join("; ")}` : ""}`,
  );
  if (p.unreadable > 0) lines.push(`    ${count(p.unreadable).padStart(7)}  unreadable (the recomputed rate is published)`);
  if (report.editions.sameFigures + report.editions.newerKept > 0) {
    lines.push(
      `  years in two editions: ${count(report.editions.sameFigures)} with the same figures, ${count(report.editions.newerKept)} different (the newer edition kept)`,
    );
  }
  if (report.join) {
    const { counts, examples } = report.join;
    lines.push(`  schools with results, against the ${report.join.against}:`);
    for (const kind of Object.keys(JOIN_LABELS) as (keyof typeof JOIN_LABELS)[]) {
      if (kind !== "matched" && kind !== "unknown" && report.join.against !== "masterlist") continue;
      const shown = examples[kind].length > 0 ? `: ${examples[kind].join(", ")}${counts[kind] > examples[kind].length ? ", …" : ""}` : "";
      lines.push(`    ${count(counts[kind]).padStart(7)}  ${JOIN_LABELS[kind]}${shown}`);
    }
    const provinces = sortedEntries(report.join.highSchoolsWithoutResultsByProvince)
      .map(([province, n]) => `${province} ${count(n)}`)
      .join(", ");
    lines.push(
      `    ${count(report.join.highSchoolsWithoutResults).padStart(7)}  published high schools with no results in the report${provinces ? ` (${provinces})` : ""}`,
    );
  }
  lines.push(`  wrote ${count(report.rows)} rows to ${outputFile} in ${seconds.toFixed(2)} s`);
  return lines.join("\n");
}
