// The DBE's National Senior Certificate School Performance Report -> rows of sources/nsc-results.csv: per
// school (EMIS number) and year, the learners who wrote, who achieved the NSC (passed), the pass rate and
// the progressed learners. Layouts: the public JSON transcription of the 2025 report (an array of schools,
// each with `results` keyed by year), and the CSV in which earlier editions circulate (one row per school,
// four columns per year: progressed_number_Y, total_wrote_Y, total_achieved_Y, percent_achieved_Y), also as
// a workbook. Pass rates are recomputed from wrote and passed; a published percentage that disagrees beyond
// rounding is reported, never taken. reference: ../shared/data/nsc/README.md, docs/national-datasets.md.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { cellAt, collapseSpaces, findColumn, normaliseHeader, readTables, UnreadableFileError, type SourceTable } from "./read-table.ts";
import { compareText, emisKey, type MasterlistIndex } from "./schools.ts";

/** The DBE page the report is published on (education.gov.za, Resources, Reports: NSC examination reports). */
export const NSC_SOURCE_URL = "https://www.education.gov.za/Resources/Reports.aspx";

export const NSC_RESULT_COLUMNS = [
  "emis_number",
  "year",
  "centre_number",
  "wrote",
  "passed",
  "pass_rate",
  "progressed",
  "source_url",
  "verified_on",
] as const;

export type NscResultRow = {
  emis_number: string;
  year: number;
  centre_number: string | null;
  wrote: number;
  passed: number;
  /** Recomputed: 100 × passed / wrote, rounded half up to one decimal (as the DBE rounds). */
  pass_rate: number;
  progressed: number | null;
};

/** One year of one school as the file gives it: raw cell text. */
type RawYear = { progressed: string; wrote: string; achieved: string; percentage: string };
/** One school as the file gives it. `where` names the row for reports (`line 12`, `entry 7`). */
type RawSchool = { where: string; emis: string; centre: string; name: string; years: Map<number, RawYear> };
type NscFile = { file: string; sheet: string | null; layout: "json" | "table"; schools: RawSchool[]; years: number[]; missingColumns: string[] };

type NscFileReport = {
  file: string;
  sheet: string | null;
  layout: "json" | "table";
  years: number[];
  schoolsRead: number;
  missingColumns: string[];
  usable: boolean;
};

type NscJoinKind = "matched" | "closed" | "not_secondary" | "other" | "unknown";

export type NscReport = {
  files: NscFileReport[];
  schoolsRead: number;
  /** Schools with at least one usable year. */
  schoolsKept: number;
  /** Rows written: one per school and year. */
  rows: number;
  droppedSchools: Record<string, number>;
  droppedYears: Record<string, number>;
  /** Years a school has no figures for (blank cells: it did not write that year). */
  blankYears: number;
  emis: { straySpaces: number; leadingZerosRestored: number };
  percentage: { agreeing: number; roundingStep: number; disagreeing: number; unreadable: number; examples: string[] };
  editions: { sameFigures: number; newerKept: number };
  /**
   * The report's schools against the masterlist: matched to a published high school, or not, and why.
   * `against`: the masterlist files (every reason known) or only the high-schools table (closed and not
   * secondary cannot be told apart from unknown).
   */
  join: null | {
    against: "masterlist" | "high-schools table";
    counts: Record<NscJoinKind, number>;
    examples: Record<NscJoinKind, string[]>;
    /** Kept masterlist schools (published high schools) with no results in the report. */
    highSchoolsWithoutResults: number;
    highSchoolsWithoutResultsByProvince: Record<string, number>;
  };
};

// ---- values --------------------------------------------------------------------------------------------

/**
 * An EMIS number as the report writes it -> the 9-digit NatEMIS. Copies of the report carry stray spaces
 * (`"200500039 "`, `"2005 00039"`, no-break spaces) and, having passed through a spreadsheet, lose leading
 * zeros (`12345678` for `012345678`): spaces are removed and a 7- or 8-digit number is padded to nine.
 */
export function normaliseNscEmis(raw: string): { emis: string | null; hadSpaces: boolean; padded: boolean } {
  const stripped = raw.replace(/[\s\u00a0\u2007\u202f]+/g, "");
  const hadSpaces = stripped !== raw && stripped !== "";
  const match = /^'?(\d+)(?:\.0+)?$/.exec(stripped);
  const digits = match?.[1];
  if (digits === undefined || digits.length < 7 || digits.length > 9) return { emis: null, hadSpaces, padded: false };
  return { emis: emisKey(digits), hadSpaces, padded: digits.length < 9 };
}

/** A count of learners: digits (spaces between them allowed), `12.0` tolerated; blank and `-` are "blank". */
export function parseCount(raw: string): number | "blank" | "invalid" {
  const text = raw.replace(/[\s\u00a0]+/g, "");
  if (text === "" || text === "-") return "blank";
  const match = /^(\d+)(?:\.0+)?$/.exec(text);
  return match?.[1] === undefined ? "invalid" : Number(match[1]);
}

/** A published percentage: `86.1`, `86,1`, `86.1%`; blank is null; anything else is "invalid". */
export function parsePercentage(raw: string): number | null | "invalid" {
  const text = raw.replace(/[\s\u00a0%]+/g, "").replace(",", ".");
  if (text === "" || text === "-") return null;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : "invalid";
}

/** 100 × passed / wrote, rounded half up to one decimal (the DBE's rounding: 15 of 16 is 93.8). */
export function passRate(passed: number, wrote: number): number {
  return Math.round((passed * 1000) / wrote) / 10;
}

/** Whether a published one-decimal percentage is the exact rate rounded (either way at a tie). */
export function agreesWithinRounding(published: number, passed: number, wrote: number): boolean {
  return Math.abs(published * wrote - passed * 100) <= 0.05 * wrote + 1e-9;
}

// ---- reading the layouts -------------------------------------------------------------------------------

const TABLE_ALIASES = {
  emis: ["emisnumber", "emis", "natemis", "emisno", "natemisnumber"],
  centre: ["centrenumber", "centreno", "centre", "examcentre", "examcentrenumber", "centrenr"],
  name: ["centrename", "schoolname", "name"],
} as const;

/** Year columns of the CSV layout, matched on normalised headers (`total_wrote_2023` -> `totalwrote2023`). */
const YEAR_COLUMNS: Record<keyof RawYear, RegExp> = {
  progressed: /^progressed(?:number|learners)?(\d{4})$/,
  wrote: /^(?:total)?wrote(\d{4})$/,
  achieved: /^(?:total)?(?:achieved|passed)(\d{4})$/,
  percentage: /^(?:percent|percentage|pct)(?:achieved|passed)?(\d{4})$|^passrate(\d{4})$/,
};

function readTable(table: SourceTable): NscFile {
  const emis = findColumn(table.headers, TABLE_ALIASES.emis);
  const centre = findColumn(table.headers, TABLE_ALIASES.centre);
  const name = findColumn(table.headers, TABLE_ALIASES.name);
  const byYear = new Map<number, Partial<Record<keyof RawYear, number>>>();
  table.headers.forEach((header, index) => {
    const normalised = normaliseHeader(header);
    for (const [field, pattern] of Object.entries(YEAR_COLUMNS) as [keyof RawYear, RegExp][]) {
      const match = pattern.exec(normalised);
      const year = match?.[1] ?? match?.[2];
      if (year === undefined) continue;
      const columns = byYear.get(Number(year)) ?? {};
      if (columns[field] === undefined) columns[field] = index;
      byYear.set(Number(year), columns);
    }
  });
  const years = [...byYear]
    .filter(([, c]) => c.wrote !== undefined && c.achieved !== undefined)
    .map(([year]) => year)
    .sort();
  const missingColumns = [
    ...(emis === undefined ? ["emis_number"] : []),
    ...(years.length === 0 ? ["total_wrote_YYYY and total_achieved_YYYY (no year has both)"] : []),
  ];
  const schools: RawSchool[] = table.rows.map((row) => ({
    where: `line ${row.line}`,
    emis: cellAt(row, emis),
    centre: cellAt(row, centre),
    name: collapseSpaces(cellAt(row, name)),
    years: new Map(
      years.map((year) => {
        const c = byYear.get(year) ?? {};
        return [
          year,
          {
            progressed: cellAt(row, c.progressed),
            wrote: cellAt(row, c.wrote),
            achieved: cellAt(row, c.achieved),
            percentage: cellAt(row, c.percentage),
          },
        ];
      }),
    ),
  }));
  return { file: table.file, sheet: table.sheet, layout: "table", schools, years, missingColumns };
}

const text = (value: unknown) => (value === null || value === undefined ? "" : typeof value === "object" ? "" : String(value));

function readJson(file: string, data: unknown): NscFile {
  const name = path.basename(file);
  if (!Array.isArray(data))
    throw new UnreadableFileError(`${name} is not the NSC report's JSON layout (expected an array of schools, each with emis and results)`);
  const entries = data.filter((entry): entry is Record<string, unknown> => typeof entry === "object" && entry !== null && !Array.isArray(entry));
  const missingColumns = [
    ...(entries.some((entry) => "emis" in entry) ? [] : ["emis"]),
    ...(entries.some((entry) => typeof entry.results === "object" && entry.results !== null) ? [] : ["results"]),
  ];
  const years = new Set<number>();
  const schools: RawSchool[] = data.map((entry: unknown, index) => {
    const record = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    const results = typeof record.results === "object" && record.results !== null ? (record.results as Record<string, unknown>) : {};
    const yearMap = new Map<number, RawYear>();
    for (const [key, value] of Object.entries(results)) {
      if (!/^\d{4}$/.test(key) || typeof value !== "object" || value === null) continue;
      const y = value as Record<string, unknown>;
      years.add(Number(key));
      yearMap.set(Number(key), {
        progressed: text(y.progressed),
        wrote: text(y.wrote),
        achieved: text(y.achieved ?? y.passed),
        percentage: text(y.percentage ?? y.pass_rate),
      });
    }
    return {
      where: `entry ${index + 1}`,
      emis: text(record.emis),
      centre: text(record.centreNo ?? record.centre_number),
      name: collapseSpaces(text(record.name)),
      years: yearMap,
    };
  });
  return { file, sheet: null, layout: "json", schools, years: [...years].sort(), missingColumns };
}

/** The report's tables in a file: JSON by extension (or content), else a CSV or workbook through read-table. */
export async function readNscFile(file: string): Promise<NscFile[]> {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".json") {
    let data: unknown;
    try {
      data = JSON.parse((await readFile(file, "utf8")).replace(/^\ufeff/, ""));
    } catch (error) {
      throw new UnreadableFileError(
        `${path.basename(file)} cannot be read as a .json file (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    return [readJson(file, data)];
  }
  return (await readTables(file)).map(readTable);
}

// ---- importing -----------------------------------------------------------------------------------------

const EXAMPLES = 5;

/**
 * Imports the report's schools from already-read files. Files are taken newest edition first (by their
 * latest year): a school's year that two editions both give comes from the newer one. `masterlist` (from
 * the schools import, or the high-schools table) classifies the report's schools for the join report.
 */
export function importNscFiles(
  files: readonly NscFile[],
  masterlist?: { index: MasterlistIndex; against: "masterlist" | "high-schools table" },
): { rows: NscResultRow[]; report: NscReport } {
  const report: NscReport = {
    files: [],
    schoolsRead: 0,
    schoolsKept: 0,
    rows: 0,
    droppedSchools: {},
    droppedYears: {},
    blankYears: 0,
    emis: { straySpaces: 0, leadingZerosRestored: 0 },
    percentage: { agreeing: 0, roundingStep: 0, disagreeing: 0, unreadable: 0, examples: [] },
    editions: { sameFigures: 0, newerKept: 0 },
    join: null,
  };
  const dropSchool = (reason: string) => (report.droppedSchools[reason] = (report.droppedSchools[reason] ?? 0) + 1);
  const dropYear = (reason: string) => (report.droppedYears[reason] = (report.droppedYears[reason] ?? 0) + 1);

  const byKey = new Map<string, NscResultRow>(); // emis|year
  const ordered = [...files].sort((a, b) => Math.max(0, ...b.years) - Math.max(0, ...a.years));
  for (const nscFile of ordered) {
    const usable = nscFile.missingColumns.length === 0;
    report.files.push({
      file: path.basename(nscFile.file),
      sheet: nscFile.sheet,
      layout: nscFile.layout,
      years: nscFile.years,
      schoolsRead: nscFile.schools.length,
      missingColumns: nscFile.missingColumns,
      usable,
    });
    report.schoolsRead += nscFile.schools.length;
    if (!usable) continue;
    const seenInFile = new Set<string>();
    for (const school of nscFile.schools) {
      const { emis, hadSpaces, padded } = normaliseNscEmis(school.emis);
      if (emis === null) {
        dropSchool(school.emis.trim() === "" ? "no EMIS number" : "not an EMIS number (7 to 9 digits)");
        continue;
      }
      if (hadSpaces) report.emis.straySpaces += 1;
      if (padded) report.emis.leadingZerosRestored += 1;
      if (seenInFile.has(emis)) {
        dropSchool("EMIS number repeated in the same file (first kept)");
        continue;
      }
      seenInFile.add(emis);
      const centre = school.centre.replace(/[\s\u00a0]+/g, "");
      for (const [year, raw] of [...school.years].sort(([a], [b]) => a - b)) {
        const wrote = parseCount(raw.wrote);
        const passed = parseCount(raw.achieved);
        const progressed = parseCount(raw.progressed);
        if (wrote === "blank" && passed === "blank" && (progressed === "blank" || progressed === 0)) {
          report.blankYears += 1;
          continue;
        }
        if (wrote === "invalid" || passed === "invalid" || wrote === "blank" || passed === "blank") {
          dropYear("wrote or passed is not a whole number (a shifted or damaged row)");
          continue;
        }
        if (progressed === "invalid") {
          dropYear("progressed is not a whole number");
          continue;
        }
        if (wrote === 0) {
          dropYear("no learner wrote (wrote 0)");
          continue;
        }
        if (passed > wrote) {
          dropYear("more passed than wrote");
          continue;
        }
        const rate = passRate(passed, wrote);
        const published = parsePercentage(raw.percentage);
        if (published === "invalid") report.percentage.unreadable += 1;
        else if (published !== null) {
          if (!agreesWithinRounding(published, passed, wrote)) {
            report.percentage.disagreeing += 1;
            if (report.percentage.examples.length < EXAMPLES) {
              report.percentage.examples.push(`${emis} ${year}: ${passed} of ${wrote} is ${rate}%, the report says ${raw.percentage.trim()}%`);
            }
          } else if (published !== rate) report.percentage.roundingStep += 1;
          else report.percentage.agreeing += 1;
        }
        const row: NscResultRow = {
          emis_number: emis,
          year,
          centre_number: /^\d+$/.test(centre) ? centre : null,
          wrote,
          passed,
          pass_rate: rate,
          progressed: progressed === "blank" ? null : progressed,
        };
        const key = `${emis}|${year}`;
        const earlier = byKey.get(key);
        if (earlier === undefined) byKey.set(key, row);
        else if (earlier.wrote === row.wrote && earlier.passed === row.passed && earlier.progressed === row.progressed)
          report.editions.sameFigures += 1;
        else report.editions.newerKept += 1;
      }
    }
  }
  const rows = [...byKey.values()].sort((a, b) => compareText(a.emis_number, b.emis_number) || a.year - b.year);
  report.rows = rows.length;
  const schools = [...new Set(rows.map((row) => row.emis_number))];
  report.schoolsKept = schools.length;

  if (masterlist) {
    const counts: Record<NscJoinKind, number> = { matched: 0, closed: 0, not_secondary: 0, other: 0, unknown: 0 };
    const examples: Record<NscJoinKind, string[]> = { matched: [], closed: [], not_secondary: [], other: [], unknown: [] };
    const matched = new Set<string>();
    for (const emis of schools) {
      const entry = masterlist.index.get(emis);
      const kind: NscJoinKind = entry === undefined ? "unknown" : entry.verdict === "kept" ? "matched" : entry.verdict;
      counts[kind] += 1;
      if (kind === "matched") matched.add(emis);
      else if (examples[kind].length < EXAMPLES) examples[kind].push(entry && "reason" in entry ? `${emis} (${entry.reason})` : emis);
    }
    const byProvince: Record<string, number> = {};
    let without = 0;
    for (const [emis, entry] of masterlist.index) {
      if (entry.verdict !== "kept" || matched.has(emis)) continue;
      without += 1;
      byProvince[entry.province] = (byProvince[entry.province] ?? 0) + 1;
    }
    report.join = {
      against: masterlist.against,
      counts,
      examples,
      highSchoolsWithoutResults: without,
      highSchoolsWithoutResultsByProvince: byProvince,
    };
  }
  return { rows, report };
}

/** The high-schools table (sources/high-schools.csv) as a masterlist index: every school in it is kept. */
export function masterlistFromHighSchools(rows: readonly { emis_number: string; province_id: string }[]): MasterlistIndex {
  return new Map(rows.map((row) => [emisKey(row.emis_number), { verdict: "kept" as const, province: row.province_id as never }]));
}
