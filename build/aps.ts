// APS schemes (part of the link stage): the aps-*.csv tables checked across rows and assembled into one
// scheme per university. Checks on a single row are in the row schemas (build/tables/aps.ts); keys and
// references are checked generically. The emit stage writes each scheme into the internal document the
// Worker scores requests against (build/internal-documents.ts).
import { computeAps } from "../domain/aps/engine.ts";
import type { ApsScheme, ScaleAssignment, ScaleBand, SelectionSlot } from "../domain/aps/scheme.ts";
import type { Model, Subject } from "./link.ts";
import type { Place, Problem, Warning } from "./problems.ts";
import type { SourceTables } from "./tables/index.ts";
import type { ValidRows, ValidTables } from "./validate.ts";

type Rows<K extends keyof SourceTables> = ValidRows<SourceTables[K]>;

const LIFE_ORIENTATION = "life-orientation";

/**
 * A learner with 100% in a full NSC subject set: one home language, one additional language, Mathematics,
 * Life Orientation and more electives than any scheme counts. Not every subject at once: nobody writes
 * English both as home and as first additional language, and a scheme that counts English twice (once on
 * its English table, once among the others) would show a maximum nobody can reach.
 */
export const TOP_LEARNER_SUBJECTS = [
  "english-home-language",
  "afrikaans-first-additional-language",
  "mathematics",
  "life-orientation",
  "physical-sciences",
  "life-sciences",
  "accounting",
  "geography",
  "history",
] as const;
const sortedText = (values: Iterable<string>) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export type ApsLink = {
  /** The current main scheme (latest intake, no variant) of each university, by university slug. */
  schemes: Map<string, ApsScheme>;
  /** The current variant schemes (latest intake of each variant), by scheme id. */
  variants: Map<string, ApsScheme>;
  problems: Problem[];
  warnings: Warning[];
};

/** Subject slugs of each class: a row names one subject, or a subject group narrowed by language level. */
function resolveClasses(rows: Rows<"apsSubjectClasses">, subjects: Subject[], problems: Problem[]): Map<string, string[]> {
  const members = new Map<string, Set<string>>();
  for (const { at, row } of rows) {
    const matched =
      row.subject_slug !== null
        ? subjects.filter((s) => s.slug === row.subject_slug)
        : subjects.filter((s) => s.group === row.subject_group && (row.language_level === null || s.language_level === row.language_level));
    if (matched.length === 0 && row.subject_slug === null) {
      problems.push({
        ...at,
        column: "subject_group",
        value: `${row.subject_group}${row.language_level ? ` ${row.language_level}` : ""}`,
        expected: "a subject_group (and language_level) that matches at least one subject in subjects.csv",
      });
    }
    const set = members.get(row.class) ?? new Set<string>();
    for (const s of matched) set.add(s.slug);
    members.set(row.class, set);
  }
  return new Map([...members].map(([name, set]) => [name, sortedText(set)]));
}

/** Bands of each scale, checked to cover 0-100 once each and to never pay less for a higher percentage. */
function resolveScales(rows: Rows<"apsScales">, problems: Problem[]): Map<string, ScaleBand[]> {
  const byScale = new Map<string, { at: Place; band: ScaleBand }[]>();
  for (const { at, row } of rows) {
    const bands = byScale.get(row.scale) ?? [];
    bands.push({ at, band: { from: row.from_percentage, to: row.to_percentage, points: row.points, points_per_percent: row.points_per_percent } });
    byScale.set(row.scale, bands);
  }
  const scales = new Map<string, ScaleBand[]>();
  for (const [name, entries] of byScale) {
    entries.sort((a, b) => a.band.from - b.band.from);
    let expectedFrom = 0;
    let previous: { at: Place; band: ScaleBand } | undefined;
    for (const entry of entries) {
      const { band, at } = entry;
      if (band.from !== expectedFrom) {
        problems.push({
          ...at,
          column: "from_percentage",
          value: String(band.from),
          expected:
            band.from > expectedFrom
              ? `${expectedFrom}: scale ${name} has a gap from ${expectedFrom} to ${band.from - 1}`
              : `${expectedFrom}: scale ${name} overlaps the band ${previous?.band.from}-${previous?.band.to}`,
        });
      }
      if (previous && highestOf(previous.band) > lowestOf(band)) {
        problems.push({
          ...at,
          column: band.points !== null ? "points" : "points_per_percent",
          value: String(band.points ?? band.points_per_percent),
          expected: `a band worth at least the band below it (scale ${name} must never give fewer points for a higher percentage)`,
        });
      }
      expectedFrom = Math.max(expectedFrom, band.to + 1);
      previous = entry;
    }
    if (previous && previous.band.to !== 100) {
      problems.push({
        ...previous.at,
        column: "to_percentage",
        value: String(previous.band.to),
        expected: `100: scale ${name} must cover percentages up to 100`,
      });
    }
    scales.set(
      name,
      entries.map((e) => e.band),
    );
  }
  return scales;
}

// A band's points at its lowest percentage and (the limit of) its highest; "to" is inclusive of its fractions.
const lowestOf = (band: ScaleBand) => band.points ?? (band.points_per_percent ?? 0) * band.from;
const highestOf = (band: ScaleBand) => band.points ?? (band.points_per_percent ?? 0) * Math.min(band.to + 1, 100);

const FACTOR_OF_METHOD = { "percentage-sum": 1, "percentage-average": 1, "percentage-tenths": 0.1 } as const;

type SchemeInputs = {
  classes: Map<string, string[]>;
  scales: Map<string, ScaleBand[]>;
  scaleRows: Rows<"apsSchemeScales">;
  selectionRows: Rows<"apsSchemeSelection">;
  bonusRows: Rows<"apsBonuses">;
  topLearner: { subject_slug: string; percentage: number }[];
};
type SchemeRow = Rows<"apsSchemes">[number];
type Report = (column: string, value: string, expected: string) => void;

/** Which scale each class is scored on; one default; a subject in at most one scaled class. */
function scaleAssignmentsOf({ row }: SchemeRow, inputs: SchemeInputs, problems: Problem[], report: Report): ScaleAssignment[] {
  const assignments = inputs.scaleRows.filter((r) => r.row.scheme === row.scheme);
  const defaults = assignments.filter((r) => r.row.class === null);
  if (defaults.length !== 1) report("scheme", row.scheme, "exactly one row in aps-scheme-scales.csv with an empty class (the default scale)");
  const claimedBy = new Map<string, string>();
  const scaleAssignments: ScaleAssignment[] = [];
  for (const { at: assignmentAt, row: assignment } of [...assignments].sort((a, b) => (a.row.class === null ? 1 : b.row.class === null ? -1 : 0))) {
    const subjects = assignment.class === null ? null : (inputs.classes.get(assignment.class) ?? []);
    for (const slug of subjects ?? []) {
      const other = claimedBy.get(slug);
      if (other !== undefined) {
        problems.push({
          ...assignmentAt,
          column: "class",
          value: assignment.class ?? "",
          expected: `a class that shares no subject with another scaled class of ${row.scheme} (${slug} is also in ${other})`,
        });
      }
      claimedBy.set(slug, assignment.class ?? "");
    }
    scaleAssignments.push({ class: assignment.class, subjects, scale: assignment.scale, bands: inputs.scales.get(assignment.scale) ?? [] });
  }
  return scaleAssignments;
}

/** A points scheme needs fixed points in every band; a percentage scheme its own factor. */
function checkMethodMatchesScales({ row }: SchemeRow, assignments: ScaleAssignment[], report: Report): void {
  for (const assignment of assignments) {
    // A class of its own may weigh its subjects a whole multiple of the method's factor (CPUT's Method 2 doubles
    // Mathematics and Physical Sciences); the default scale is the method's own factor.
    const fits = (perPercent: number, factor: number) =>
      assignment.class === null ? perPercent === factor : Number.isInteger(Math.round((perPercent / factor) * 1e9) / 1e9) && perPercent >= factor;
    const wrong = assignment.bands.find((band) =>
      row.method === "points"
        ? band.points === null
        : band.points_per_percent !== null && !fits(band.points_per_percent, FACTOR_OF_METHOD[row.method]),
    );
    if (wrong) {
      report(
        "method",
        row.method,
        `a method that matches scale ${assignment.scale} (${row.method === "points" ? "a points scheme needs fixed points in every band" : `a ${row.method} scheme scores percentages x ${FACTOR_OF_METHOD[row.method]}`})`,
      );
    }
  }
}

function selectionOf({ row }: SchemeRow, inputs: SchemeInputs, report: Report): SelectionSlot[] {
  const selection = inputs.selectionRows
    .filter((r) => r.row.scheme === row.scheme)
    .sort((a, b) => a.row.position - b.row.position)
    .map(({ row: slot }) => ({ class: slot.class, subjects: inputs.classes.get(slot.class) ?? [], count: slot.count, note: slot.note }));
  if (selection.length === 0) report("scheme", row.scheme, "at least one row in aps-scheme-selection.csv saying which subjects count");
  return selection;
}

/** The declared Life Orientation treatment must be what the selection and scale tables actually do. */
function checkLifeOrientation({ row }: SchemeRow, selection: SelectionSlot[], assignments: ScaleAssignment[], report: Report): void {
  const loCounted = selection.some((slot) => slot.subjects.includes(LIFE_ORIENTATION));
  const loScaled = assignments.some((a) => a.subjects?.includes(LIFE_ORIENTATION));
  const loExpected = {
    excluded: [!loCounted, "Life Orientation in no selection class"],
    counted: [loCounted && !loScaled, "Life Orientation in a selection class and scored on the default scale"],
    "separate-table": [loCounted && loScaled, "Life Orientation in a selection class and given its own scale in aps-scheme-scales.csv"],
    bonus: [loCounted && loScaled, "Life Orientation in a selection class and given its own (small) scale in aps-scheme-scales.csv"],
  } as const;
  const [loOk, loWhat] = loExpected[row.life_orientation];
  if (!loOk)
    report("life_orientation", row.life_orientation, `a treatment that matches the scheme's other tables (${row.life_orientation} needs ${loWhat})`);
}

function bonusesOf({ row }: SchemeRow, inputs: SchemeInputs, problems: Problem[]): Rows<"apsBonuses"> {
  const bonuses = inputs.bonusRows.filter((r) => r.row.scheme === row.scheme).sort((a, b) => a.row.from_percentage - b.row.from_percentage);
  for (const [i, bonus] of bonuses.entries()) {
    const overlapping = bonuses.slice(0, i).find((o) => o.row.class === bonus.row.class && o.row.to_percentage >= bonus.row.from_percentage);
    if (overlapping) {
      problems.push({
        ...bonus.at,
        column: "from_percentage",
        value: String(bonus.row.from_percentage),
        expected: `a bonus band that does not overlap ${overlapping.row.from_percentage}-${overlapping.row.to_percentage} of class ${bonus.row.class}`,
      });
    }
  }
  return bonuses;
}

function assembleScheme(schemeRow: SchemeRow, inputs: SchemeInputs, problems: Problem[]): ApsScheme {
  const { at, row } = schemeRow;
  const before = problems.length;
  const report: Report = (column, value, expected) => problems.push({ ...at, column, value, expected });
  const scales = scaleAssignmentsOf(schemeRow, inputs, problems, report);
  checkMethodMatchesScales(schemeRow, scales, report);
  const selection = selectionOf(schemeRow, inputs, report);
  checkLifeOrientation(schemeRow, selection, scales, report);
  const bonuses = bonusesOf(schemeRow, inputs, problems);
  const scheme: ApsScheme = {
    id: row.scheme,
    university_slug: row.university_slug,
    name: row.name,
    intake_year: row.intake_year,
    variant: row.variant,
    method: row.method,
    life_orientation: row.life_orientation,
    maximum: row.maximum,
    ...(row.required_subjects_counted ? { required_subjects_counted: true } : {}),
    confidence: row.confidence,
    notes: row.notes ?? "",
    source_url: row.source_url,
    verified_on: row.verified_on,
    scales,
    selection,
    bonuses: bonuses.map(({ row: b }) => ({
      class: b.class,
      subjects: inputs.classes.get(b.class) ?? [],
      from: b.from_percentage,
      to: b.to_percentage,
      points: b.points,
    })),
  };
  if (problems.length === before) {
    // The declared maximum is what a learner with 100% in a full subject set scores; a mismatch means a
    // band, count or bonus was typed wrong.
    const best = computeAps(scheme, inputs.topLearner);
    if (best.score !== row.maximum) {
      report(
        "maximum",
        String(row.maximum),
        `${best.score}, the score of 100% in ${TOP_LEARNER_SUBJECTS.join(", ")} under this scheme's tables (exactly ${best.exact_score})`,
      );
    }
  }
  return scheme;
}

/** One scheme per university, variant and intake; the latest intake's is the current one. */
function currentSchemes(
  assembled: { at: Place; scheme: ApsScheme }[],
  problems: Problem[],
): { main: Map<string, ApsScheme>; variants: Map<string, ApsScheme> } {
  const byUniversity = new Map<string, { at: Place; scheme: ApsScheme }[]>();
  for (const entry of assembled) {
    const key = `${entry.scheme.university_slug}|${entry.scheme.variant ?? ""}`;
    const list = byUniversity.get(key) ?? [];
    const same = list.find((e) => e.scheme.intake_year === entry.scheme.intake_year);
    if (same) {
      problems.push({
        ...entry.at,
        column: "intake_year",
        value: String(entry.scheme.intake_year),
        expected: `one scheme per university, variant and intake (${entry.scheme.university_slug} already has ${same.scheme.id} for ${same.scheme.intake_year} at line ${same.at.line})`,
      });
    }
    list.push(entry);
    byUniversity.set(key, list);
  }
  const main = new Map<string, ApsScheme>();
  const variants = new Map<string, ApsScheme>();
  for (const list of byUniversity.values()) {
    const latest = list.reduce((a, b) => (b.scheme.intake_year > a.scheme.intake_year ? b : a)).scheme;
    if (latest.variant === null) main.set(latest.university_slug, latest);
    else variants.set(latest.id, latest);
  }
  return { main, variants };
}

/** Every university has a scheme; every min_aps fits its scheme; intakes that differ from the scheme's are named. */
function checkAgainstCatalogue(
  valid: ValidTables<SourceTables>,
  schemes: Map<string, ApsScheme>,
  variants: Map<string, ApsScheme>,
  problems: Problem[],
  warnings: Warning[],
): void {
  for (const { at, row } of valid.universities) {
    if (!schemes.has(row.slug))
      problems.push({ ...at, column: "slug", value: row.slug, expected: "a university with an APS scheme in aps-schemes.csv" });
  }
  const otherIntakes = new Map<string, Set<number>>();
  for (const { at, row } of valid.qualifications) {
    const main = schemes.get(row.university_slug);
    if (!main) continue;
    const scheme = row.aps_scheme === null || row.aps_scheme === main.id ? main : variants.get(row.aps_scheme);
    if (!scheme || scheme.university_slug !== row.university_slug) {
      problems.push({
        ...at,
        column: "aps_scheme",
        value: row.aps_scheme ?? "",
        expected: `empty (the main scheme ${main.id}) or a current variant scheme of ${row.university_slug} (${
          [...variants.values()]
            .filter((v) => v.university_slug === row.university_slug)
            .map((v) => v.id)
            .join(", ") || "it has none"
        })`,
      });
      continue;
    }
    if (row.min_aps !== null && row.min_aps > scheme.maximum) {
      problems.push({
        ...at,
        column: "min_aps",
        value: String(row.min_aps),
        expected: `at most ${scheme.maximum}, the maximum of ${scheme.name} (${scheme.id}); min_aps is on the university's own scale`,
      });
    }
    if (row.intake_year !== scheme.intake_year) {
      const years = otherIntakes.get(row.university_slug) ?? new Set<number>();
      years.add(row.intake_year);
      otherIntakes.set(row.university_slug, years);
    }
  }
  for (const [slug, years] of otherIntakes) {
    const scheme = schemes.get(slug);
    warnings.push({
      resource: "aps",
      kind: "universities whose qualifications for another intake year are scored with their latest APS scheme",
      message: `${slug}: qualifications for intake ${[...years].sort().join(", ")} are matched with the ${scheme?.intake_year} APS scheme (${scheme?.id})`,
    });
  }
  const unsure = [...schemes.values()].filter((s) => s.confidence === "low").map((s) => s.id);
  if (unsure.length > 0)
    warnings.push({
      resource: "aps",
      kind: "APS schemes of low confidence",
      count: unsure.length,
      message: `${unsure.length} APS scheme(s) have low confidence: ${sortedText(unsure).join(", ")}`,
    });
}

export function linkApsSchemes(valid: ValidTables<SourceTables>, model: Model): ApsLink {
  const problems: Problem[] = [];
  const warnings: Warning[] = [];
  const known = new Set(model.subjects.map((s) => s.slug));
  const inputs: SchemeInputs = {
    classes: resolveClasses(valid.apsSubjectClasses, model.subjects, problems),
    scales: resolveScales(valid.apsScales, problems),
    scaleRows: valid.apsSchemeScales,
    selectionRows: valid.apsSchemeSelection,
    bonusRows: valid.apsBonuses,
    topLearner: TOP_LEARNER_SUBJECTS.filter((slug) => known.has(slug)).map((subject_slug) => ({ subject_slug, percentage: 100 })),
  };
  const assembled = valid.apsSchemes.map((schemeRow) => ({ at: schemeRow.at, scheme: assembleScheme(schemeRow, inputs, problems) }));
  const { main: schemes, variants } = currentSchemes(assembled, problems);
  checkAgainstCatalogue(valid, schemes, variants, problems, warnings);
  return { schemes, variants, problems, warnings };
}
