// How complete and how current the curated data is, printed at every build (the coverage table) and
// warned about where it falls short: the programme catalogue per university, its confidence mix, rows on an
// older intake than the one applications are open for, and open conflicts between witnesses.
import { CONFIDENCE_LEVELS } from "../lib/vocabulary.ts";
import type { Conflict } from "./catalogue.ts";
import type { Model } from "./link.ts";
import type { Warning } from "./problems.ts";

/** The intake applications are open for: a school leaver applies in year Y for the academic year Y + 1. */
export const currentIntake = (today: string) => Number(today.slice(0, 4)) + 1;

/** Whether a qualification rests on the university's own page or document for the intake before the current one or
 * later (issue 26: the official evidence behind the catalogue). */
export function hasOfficialWitness(q: Model["qualifications"][number], intake: number): boolean {
  return q.sources.some((s) => (s.kind === "own-page" || s.kind === "official-document") && s.intake_year !== null && s.intake_year >= intake - 1);
}

const percent = (n: number, of: number) => (of === 0 ? "-" : `${Math.round((100 * n) / of)}%`);

export function formatCoverage(model: Model, today: string): string[] {
  const intake = currentIntake(today);
  const lines = [
    "  Coverage per university",
    `  university   qualifications   with requirements   intake ${intake}+   official ${intake - 1}+   confidence h/m/l   latest cycle   fee   prospectus`,
  ];
  const row = (name: string, qs: Model["qualifications"], cycle: string, fee: string, prospectus: string) => {
    const withRequirements = qs.filter((q) => q.requirements.length > 0 || q.generalRequirements.length > 0).length;
    const current = qs.filter((q) => q.intake_year >= intake).length;
    const official = qs.filter((q) => hasOfficialWitness(q, intake)).length;
    const confidence = CONFIDENCE_LEVELS.map((c) => qs.filter((q) => q.confidence === c).length).join("/");
    lines.push(
      `  ${name.padEnd(10)} ${String(qs.length).padStart(16)} ${percent(withRequirements, qs.length).padStart(19)} ${percent(current, qs.length).padStart(13)} ${`${official} ${percent(official, qs.length)}`.padStart(15)} ${confidence.padStart(18)}` +
        ` ${cycle.padStart(14)} ${fee.padStart(5)} ${prospectus.padStart(12)}`,
    );
  };
  for (const u of [...model.universities].sort((a, b) => (a.short_name < b.short_name ? -1 : 1))) {
    const latestCycle = u.cycles.reduce((year, c) => Math.max(year, c.intake_year), 0);
    const latestProspectus = u.prospectuses.reduce((year, p) => Math.max(year, p.year), 0);
    row(
      u.short_name,
      u.qualifications,
      latestCycle === 0 ? "none" : String(latestCycle),
      u.fees.length > 0 ? "yes" : "no",
      latestProspectus === 0 ? "none" : String(latestProspectus),
    );
  }
  row("all", model.qualifications, "", "", "");
  return lines;
}

export function catalogueWarnings(model: Model, conflicts: Conflict[], today: string): Warning[] {
  const warnings: Warning[] = [];
  const intake = currentIntake(today);
  const older = new Map<string, number>();
  for (const q of model.qualifications) if (q.intake_year < intake) older.set(q.university_slug, (older.get(q.university_slug) ?? 0) + 1);
  if (older.size > 0) {
    const list = [...older]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([slug, n]) => `${slug} ${n}`)
      .join(", ");
    warnings.push({
      resource: "qualifications",
      kind: "qualifications resting on witnesses for an earlier intake",
      count: [...older.values()].reduce((a, b) => a + b, 0),
      message: `${[...older.values()].reduce((a, b) => a + b, 0)} qualification(s) rest on witnesses for an intake before ${intake} (kept with their true intake year): ${list}`,
    });
  }
  const open = conflicts.filter((c) => c.status === "open");
  if (open.length > 0) {
    warnings.push({
      resource: "qualifications",
      kind: "open conflicts between witnesses",
      count: open.length,
      message: `${open.length} open conflict(s) (equally ranked witnesses disagree, or an undated official page against a dated transcription); see docs/data-conflicts.md`,
    });
  }
  return warnings;
}
