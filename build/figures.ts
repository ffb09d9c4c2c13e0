// The README's figures that a build produces (records, files, bytes, coverage), written between markers by
// `npm run docs:figures`, so the README says what a fresh build of the committed sources gives. A marker is an
// HTML comment pair around the figure: <!--fig:schools-->8,913<!--/fig-->. test/node/figures.test.ts fails
// while any figure is stale. Figures no command produces (benchmarks, audits) stay hand-written, with their date.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { CONFIDENCE_LEVELS } from "../lib/vocabulary.ts";
import { PUBLIC_DOCUMENTS } from "../lib/public-documents.ts";
import type { Conflict } from "./catalogue.ts";
import { currentIntake } from "./coverage.ts";
import type { Model } from "./link.ts";

const number = (n: number) => n.toLocaleString("en-US");
const percent = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;

/** Province codes as the README's national table writes them, in its order. */
const PROVINCE_ORDER: [string, string][] = [
  ["eastern-cape", "EC"],
  ["free-state", "FS"],
  ["gauteng", "GT"],
  ["kwazulu-natal", "KZN"],
  ["limpopo", "LP"],
  ["mpumalanga", "MP"],
  ["north-west", "NW"],
  ["northern-cape", "NC"],
  ["western-cape", "WC"],
];

/** Every file under `folder`, with the sum of their sizes. */
async function filesUnder(folder: string): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const sizes = await Promise.all(entries.filter((e) => e.isFile()).map(async (e) => (await stat(path.join(e.parentPath, e.name))).size));
  return { files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

/** The figures of a build: its model (with the conflicts and the build date) and the folder it was written to. */
export async function buildFigures(model: Model, conflicts: readonly Conflict[], today: string, outDir: string): Promise<Record<string, string>> {
  const qs = model.qualifications;
  const intake = currentIntake(today);
  const confidence = Object.fromEntries(CONFIDENCE_LEVELS.map((c) => [c, qs.filter((q) => q.confidence === c).length]));
  const withNsc = model.highSchools.filter((s) => s.nsc_results.length > 0).length;
  const output = await filesUnder(outDir);
  return {
    universities: number(model.universities.length),
    qualifications: number(qs.length),
    "qualifications-with-requirements": percent(qs.filter((q) => q.requirements.length > 0 || q.generalRequirements.length > 0).length, qs.length),
    "qualifications-current-intake": percent(qs.filter((q) => q.intake_year >= intake).length, qs.length),
    "confidence-high": number(confidence.high ?? 0),
    "confidence-medium": number(confidence.medium ?? 0),
    "confidence-low": number(confidence.low ?? 0),
    "open-conflicts": number(conflicts.filter((c) => c.status === "open").length),
    subjects: number(model.subjects.length),
    schools: number(model.highSchools.length),
    "schools-per-province": PROVINCE_ORDER.map(
      ([id, code]) => `${code} ${number(model.highSchools.filter((s) => s.province.id === id).length)}`,
    ).join(", "),
    "schools-with-nsc": number(withNsc),
    "postal-codes": number(model.postalCodes.length),
    bursaries: number(model.bursaries.length),
    "bursary-cycles": number(model.bursaries.reduce((n, b) => n + b.cycles.length, 0)),
    "bursaries-undergraduate": number(model.bursaries.filter((b) => b.study_levels.includes("undergraduate")).length),
    "bursaries-low": number(model.bursaries.filter((b) => b.confidence === "low").length),
    "output-files": number(output.files),
    "output-mib": (output.bytes / 1024 / 1024).toFixed(1),
    "public-documents": number(PUBLIC_DOCUMENTS.length),
  };
}

const MARKER = /<!--fig:([a-z0-9-]+)-->(.*?)<!--\/fig-->/g;

/** `text` with every marked figure replaced by its value; throws on a marker whose name has no figure. */
export function applyFigures(text: string, figures: Record<string, string>): string {
  return text.replace(MARKER, (_, name: string) => {
    const value = figures[name];
    if (value === undefined) throw new Error(`README figure "${name}" is not one that npm run docs:figures produces`);
    return `<!--fig:${name}-->${value}<!--/fig-->`;
  });
}
