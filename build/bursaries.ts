// The bursaries (part of the link stage): each scheme joined with its application cycles (newest intake first),
// its confidence derived from the witness of its latest cycle, and, for a scheme that recurs every year, the
// cycle expected next. Checks across rows: every bursary has a cycle; a `past-cycles` recurrence has two cycles
// on the same dates (domain/bursary-cycles.ts); provinces exist; fields-of-study.csv has exactly the fields of
// lib/vocabulary.ts, and every one of them is used by a bursary.
import { acceptsOn, closedOverAYearBefore, expectedNextCycle, newestFirst, repeatedDates, type ExpectedCycle } from "../domain/bursary-cycles.ts";
import { confidenceOf, type Statement } from "../domain/evidence.ts";
import { ALL_FIELDS, CONFIDENCE_LEVELS, FIELDS_OF_STUDY, type Confidence, type FieldOfStudySlug } from "../lib/vocabulary.ts";
import { opaqueId } from "./ids.ts";
import { byText } from "./order.ts";
import type { Problem, Warning } from "./problems.ts";
import type { Row } from "./tables/define.ts";
import type { SourceTables } from "./tables/index.ts";
import type { ValidTables } from "./validate.ts";

type Tables = SourceTables;

type BursaryCycle = Row<Tables["bursaryCycles"]>;
export type Bursary = Row<Tables["bursaries"]> & {
  id: string;
  /** Published cycles, newest intake first (at least one). */
  cycles: BursaryCycle[];
  /** From the latest cycle's witness (domain/evidence.ts): own page or official document high, transcription
   * or a corroborated third-party page medium, a single third-party page low. */
  confidence: Confidence;
  /** Annual schemes: the latest cycle moved on to the first year that closes on or after the build date. */
  expected_next_cycle: ExpectedCycle | null;
};
export type FieldOfStudy = Row<Tables["fieldsOfStudy"]> & {
  /** Bursaries `?field=<slug>` lists: those naming the field, and those open to all fields. */
  bursary_count: number;
};

/** The fields of study a bursary is listed under by `?field=`: its own, and every field when it is open to all fields. */
export function fieldsMatched(fields: readonly FieldOfStudySlug[]): FieldOfStudySlug[] {
  return fields.includes(ALL_FIELDS) ? [...FIELDS_OF_STUDY] : [...fields];
}

/** The latest cycle's confidence: its witness kind, and a corroboration of another lineage as a second witness. */
function cycleConfidence(cycle: Pick<BursaryCycle, "evidence_kind" | "intake_year" | "source_url" | "corroborated_by">): Confidence {
  const statement = (kind: BursaryCycle["evidence_kind"], lineage: string): Statement<string> => ({
    value: "dates",
    key: "dates",
    kind,
    intakeYear: cycle.intake_year,
    lineage,
    witness: lineage,
  });
  const statements = [statement(cycle.evidence_kind, cycle.source_url)];
  if (cycle.corroborated_by !== null) statements.push(statement("third-party", cycle.corroborated_by));
  return confidenceOf("dates", statements, cycle.intake_year);
}

export type LinkedBursaries = { bursaries: Bursary[]; fieldsOfStudy: FieldOfStudy[]; problems: Problem[]; warnings: Warning[] };

export function linkBursaries(valid: ValidTables<Tables>, provinceIds: Set<string>, today: string): LinkedBursaries {
  const problems: Problem[] = [];
  const cyclesBy = new Map<string, BursaryCycle[]>();
  for (const { row } of valid.bursaryCycles) {
    const cycles = cyclesBy.get(row.bursary_slug);
    if (cycles) cycles.push(row);
    else cyclesBy.set(row.bursary_slug, [row]);
  }

  const bursaries: Bursary[] = [];
  for (const { at, row } of valid.bursaries) {
    const cycles = newestFirst(cyclesBy.get(row.slug) ?? []);
    const unknownProvinces = row.provinces.filter((p) => !provinceIds.has(p));
    if (unknownProvinces.length > 0) {
      problems.push({
        ...at,
        column: "provinces",
        value: row.provinces.join(";"),
        expected: `province ids that exist in provinces (not ${unknownProvinces.join(", ")})`,
      });
    }
    const latest = cycles[0];
    if (!latest) {
      problems.push({
        ...at,
        column: "slug",
        value: row.slug,
        expected: "a bursary with at least one cycle in bursary-cycles.csv (its latest published dates)",
      });
      continue;
    }
    // Only dated calls show a pattern: a standing window is the provider's statement, not a past cycle.
    const calls = cycles.filter((c) => c.dates_from === "call");
    if (row.recurs_basis === "past-cycles" && repeatedDates(calls) === null) {
      const listed = calls.map((c) => `${c.intake_year}: ${c.open_date ?? "?"} to ${c.close_date}`).join(", ");
      problems.push({
        ...at,
        column: "recurs_basis",
        value: row.recurs_basis,
        expected: `two dated calls in bursary-cycles.csv on the same dates (same closing month and day, and opening month and day where both give one), or provider-statement; its dated calls are ${listed || "none"}`,
      });
    }
    bursaries.push({
      ...row,
      id: opaqueId("bur", row.slug),
      cycles,
      confidence: cycleConfidence(latest),
      expected_next_cycle: row.recurs === "annual" && row.recurs_basis !== null ? expectedNextCycle(latest, row.recurs_basis, today) : null,
    });
  }
  bursaries.sort((a, b) => byText(a.name, b.name) || byText(a.slug, b.slug));

  // The vocabulary: the table has exactly the fields of lib/vocabulary.ts, each used by a bursary.
  const used = new Set(valid.bursaries.flatMap(({ row }) => row.fields));
  const rows = valid.fieldsOfStudy;
  const listed = new Set(rows.map(({ row }) => row.slug));
  const tableFile = rows[0]?.at.file ?? "sources/fields-of-study.csv";
  for (const slug of FIELDS_OF_STUDY) {
    if (!listed.has(slug)) {
      problems.push({
        file: tableFile,
        line: 1,
        column: "slug",
        value: slug,
        expected: `a row for every field of FIELDS_OF_STUDY in lib/vocabulary.ts (${slug} has none)`,
      });
    }
  }
  for (const { at, row } of rows) {
    if (!used.has(row.slug)) {
      problems.push({
        ...at,
        column: "slug",
        value: row.slug,
        expected:
          "a field of study that at least one bursary lists in its fields (none does: remove it here and from FIELDS_OF_STUDY, or classify a bursary under it)",
      });
    }
  }
  const fieldsOfStudy = rows
    .map(({ row }) => ({ ...row, bursary_count: bursaries.filter((b) => fieldsMatched(b.fields).includes(row.slug)).length }))
    .sort((a, b) => byText(a.name, b.name) || byText(a.slug, b.slug));

  return { bursaries, fieldsOfStudy, problems, warnings: bursaryWarnings(bursaries, today) };
}

/** The build summary's lines about the bursaries: how many, for whom, how current, how sure. */
export function formatBursaryCoverage(bursaries: Bursary[], today: string): string[] {
  if (bursaries.length === 0) return [];
  const count = (test: (b: Bursary) => boolean) => bursaries.filter(test).length;
  const share = (n: number) => `${Math.round((1000 * n) / bursaries.length) / 10}%`;
  const current = count((b) => b.cycles.some((c) => c.intake_year >= Number(today.slice(0, 4))));
  const currentCall = count((b) => b.cycles.some((c) => c.intake_year >= Number(today.slice(0, 4)) && c.dates_from === "call"));
  const confidence = CONFIDENCE_LEVELS.map((level) => count((b) => b.confidence === level)).join("/");
  return [
    "  Bursaries",
    `  ${bursaries.length} bursaries, ${count((b) => b.study_levels.includes("undergraduate"))} for undergraduates; ` +
      `${bursaries.reduce((n, b) => n + b.cycles.length, 0)} published cycles; ${current} (${share(current)}) with a cycle for ${today.slice(0, 4)} or later ` +
      `(${currentCall}, ${share(currentCall)}, with a dated call; the rest from a standing yearly window); ` +
      `${count((b) => b.cycles.some((c) => acceptsOn(c, today)))} accepting applications today; ${count((b) => b.recurs !== null)} annual; confidence h/m/l ${confidence}`,
  ];
}

/** Bursaries whose latest published cycle closed more than a year ago, and links that are not https. */
function bursaryWarnings(bursaries: Bursary[], today: string): Warning[] {
  const warnings: Warning[] = [];
  const stale = bursaries.filter((b) => closedOverAYearBefore(b.cycles[0] as BursaryCycle, today));
  if (stale.length > 0) {
    const perYear = new Map<string, number>();
    for (const b of stale) {
      const year = (b.cycles[0] as BursaryCycle).close_date.slice(0, 4);
      perYear.set(year, (perYear.get(year) ?? 0) + 1);
    }
    const years = [...perYear]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([year, n]) => `${year}: ${n}`)
      .join(", ");
    const oldest = stale.reduce((a, b) => ((a.cycles[0] as BursaryCycle).close_date <= (b.cycles[0] as BursaryCycle).close_date ? a : b));
    warnings.push({
      resource: "bursaries",
      kind: "bursaries whose latest published cycle closed more than a year ago",
      count: stale.length,
      message:
        `${stale.length} of ${bursaries.length} bursaries' latest published cycle closed more than a year ago (by year of closing: ${years}; oldest ${oldest.slug} ` +
        `${(oldest.cycles[0] as BursaryCycle).close_date}); find their newer cycles and add them to bursary-cycles.csv`,
    });
  }
  const insecure = bursaries.filter((b) =>
    [b.source_url, b.application_url, ...b.cycles.flatMap((c) => [c.source_url, c.corroborated_by ?? ""])].some((u) => u.startsWith("http:")),
  );
  if (insecure.length > 0) {
    warnings.push({
      resource: "bursaries",
      kind: "bursaries citing an http:// address",
      count: insecure.length,
      message: `${insecure.length} bursaries cite an http:// address (e.g. ${insecure[0]?.slug}); use https:// where the site offers it`,
    });
  }
  return warnings;
}
