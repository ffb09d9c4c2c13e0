// The DBE EMIS masterlist -> rows of sources/high-schools.csv. Keeps the schools that write the NSC
// (Phase_PED secondary or combined), normalises the value domains that differ between provinces, repairs
// coordinates (importers/coordinates.ts) and mis-decoded characters in names (importers/text-repair.ts). Layouts handled: the 2024 per-province workbooks (Gauteng
// and the special-needs-centres file name and order their columns differently) and the national
// semicolon-separated CSV with decimal commas. reference: /work/shared/reference/datasets.md.
import path from "node:path";
import { cellAt, collapseSpaces, mapColumns, readTables, type HeaderAlias, type SourceRow, type SourceTable } from "./read-table.ts";
import { repairCoordinates, type CoordinateOutcome, type ProvinceId } from "./coordinates.ts";
import { RepairCounter } from "./text-repair.ts";
import type { SCHOOL_PHASES, SCHOOL_SECTORS } from "../lib/vocabulary.ts";

type SchoolSector = (typeof SCHOOL_SECTORS)[number];
type SchoolPhase = (typeof SCHOOL_PHASES)[number];

export const DBE_SOURCE_URL = "https://www.education.gov.za/Programmes/EMIS/EMISDownloads.aspx";

export const HIGH_SCHOOL_COLUMNS = [
  "emis_number",
  "name",
  "province_id",
  "district",
  "quintile",
  "sector",
  "phase",
  "latitude",
  "longitude",
  "source_url",
  "verified_on",
] as const;

export type HighSchoolRow = {
  emis_number: string;
  name: string;
  province_id: ProvinceId;
  district: string | null;
  quintile: number | null;
  sector: SchoolSector;
  phase: SchoolPhase;
  latitude: number | null;
  longitude: number | null;
};

/** Header aliases, as normalised by read-table (lower-case, letters and digits only). */
const SCHOOL_COLUMN_ALIASES = {
  emis: ["natemis", "natemisnumber", "emis", "emisno", "emisnumber"],
  name: ["officialinstitutionname", "institutionname", "schoolname", "name"],
  province: ["province", "provincename"],
  provinceCode: ["provincecd", "provincecode"],
  status: ["status"],
  sector: ["sector"],
  phase: ["phaseped", "phase"],
  district: ["eidistrict", "district", "educationdistrict"],
  quintile: ["quintile"],
  longitude: ["gislongitude", "gislong", "longitude", "long", "lon", "lng"],
  latitude: ["gislatitude", "gislat", "latitude", "lat"],
} satisfies Record<string, readonly HeaderAlias[]>;

type SchoolColumn = keyof typeof SCHOOL_COLUMN_ALIASES;
const REQUIRED_COLUMNS: readonly SchoolColumn[] = ["emis", "name", "sector", "phase", "longitude", "latitude"];

/** Province names and codes seen in DBE files (`GT` not `GP`; an older national file used `ES`). */
const PROVINCE_NAMES: Readonly<Record<string, ProvinceId>> = {
  easterncape: "eastern-cape",
  ec: "eastern-cape",
  es: "eastern-cape",
  freestate: "free-state",
  fs: "free-state",
  gauteng: "gauteng",
  gt: "gauteng",
  gp: "gauteng",
  kwazulunatal: "kwazulu-natal",
  kzn: "kwazulu-natal",
  kn: "kwazulu-natal",
  limpopo: "limpopo",
  lp: "limpopo",
  lim: "limpopo",
  mpumalanga: "mpumalanga",
  mp: "mpumalanga",
  northwest: "north-west",
  nw: "north-west",
  northerncape: "northern-cape",
  nc: "northern-cape",
  westerncape: "western-cape",
  wc: "western-cape",
};

/**
 * The DBE's numeric province codes (the ProvinceCD column, and the first digit of every NatEMIS number in
 * the 2024 files): 1 WC, 2 EC, 3 NC, 4 FS, 5 KZN, 6 NW, 7 GT, 8 MP, 9 LP. Used only when the Province
 * column is blank or unrecognised.
 */
const PROVINCE_NUMBERS: Readonly<Record<string, ProvinceId>> = {
  "1": "western-cape",
  "2": "eastern-cape",
  "3": "northern-cape",
  "4": "free-state",
  "5": "kwazulu-natal",
  "6": "north-west",
  "7": "gauteng",
  "8": "mpumalanga",
  "9": "limpopo",
};

export function normaliseProvince(name: string, numericCode = ""): ProvinceId | null {
  const key = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/province$/, "");
  return PROVINCE_NAMES[key] ?? PROVINCE_NUMBERS[numericCode.trim()] ?? null;
}

/** `Q1`..`Q5`, `1`..`5`, `Quintile 3`; `N/A`, `99`, `0` and blank mean unknown. */
export function normaliseQuintile(raw: string): number | null {
  const match = /^(?:q|quintile)?\s*([1-5])(?:\.0+)?$/i.exec(raw.trim());
  return match ? Number(match[1]) : null;
}

export function normaliseSector(raw: string): SchoolSector | null {
  const value = collapseSpaces(raw).toLowerCase();
  if (value === "public" || value === "state") return "public";
  if (value === "independent" || value === "private") return "independent";
  return null;
}

/** `SECONDARY SCHOOL` / `COMBINED SCHOOL` (any case, with or without "school"); anything else is null. */
export function normalisePhase(raw: string): SchoolPhase | null {
  const value = collapseSpaces(raw)
    .toLowerCase()
    .replace(/\s+school$/, "");
  if (value === "secondary") return "secondary";
  if (value === "combined") return "combined";
  return null;
}

/** Sentinels the DBE writes for "unknown" in text columns. */
const TEXT_SENTINELS = new Set(["", "-", ".", "99", "n/a", "na", "null", "none", "unknown", "not applicable"]);

export function normaliseText(raw: string): string | null {
  const value = collapseSpaces(raw);
  return TEXT_SENTINELS.has(value.toLowerCase()) ? null : value;
}

/** NatEMIS as text: digits only, leading zeros kept. A spreadsheet's `123456789.0` is tolerated. */
export function normaliseEmis(raw: string): string | null {
  const match = /^(\d{6,12})(?:\.0+)?$/.exec(raw.trim());
  return match?.[1] ?? null;
}

/** `usable` false: the file lacks a required column, so none of its rows were read. */
type SchoolsFileReport = { file: string; sheet: string | null; rowsRead: number; kept: number; missingColumns: string[]; usable: boolean };

export type SchoolsReport = {
  files: SchoolsFileReport[];
  rowsRead: number;
  kept: number;
  dropped: Record<string, number>;
  coordinates: Partial<Record<CoordinateOutcome, number>>;
  /** Mis-decoded characters repaired in kept rows (importers/text-repair.ts), per kind, and those left. */
  textRepairs: {
    names: number;
    districts: number;
    byKind: Record<string, number>;
    unrepaired: Record<string, number>;
  };
};

/**
 * What the masterlist says about a NatEMIS number, for joining other datasets (the NSC results) to it:
 * kept as a high school, or dropped, and why. `closed`: a status other than open; `not_secondary`: a phase
 * other than secondary or combined; `other`: dropped for another reason (no name, unknown sector, ...).
 */
type MasterlistEntry = { verdict: "kept"; province: ProvinceId } | { verdict: "closed" | "not_secondary" | "other"; reason: string };

/** Every NatEMIS number read from the masterlist files, by its 9-digit key (emisKey). */
export type MasterlistIndex = Map<string, MasterlistEntry>;

/** The join key of an EMIS number: digits padded to nine with the leading zeros a spreadsheet may have lost. */
export function emisKey(emis: string): string {
  return emis.padStart(9, "0");
}

/** Why a row is dropped; the counts per reason make up the import report. */
type RowVerdict = { row: HighSchoolRow; coordinates: CoordinateOutcome } | { dropped: string };

/**
 * One source row -> one high-school row, or the reason it is not one. `firstCoordinateColumn` is the
 * position of the earlier of the two coordinate columns: when a row is misaligned from the coordinates
 * onward, every column after that position belongs to another column and is not trusted either.
 */
function schoolFromRow(row: SourceRow, columns: Partial<Record<SchoolColumn, number>>): RowVerdict {
  const get = (column: SchoolColumn) => cellAt(row, columns[column]);
  const status = collapseSpaces(get("status")).toLowerCase();
  if (status !== "" && status !== "open") return { dropped: `status not open (${collapseSpaces(get("status"))})` };

  const phase = normalisePhase(get("phase"));
  if (phase === null) {
    const shown = collapseSpaces(get("phase")) || "blank";
    return { dropped: `phase not secondary or combined (${shown})` };
  }
  const emis = normaliseEmis(get("emis"));
  if (emis === null) return { dropped: "no valid NatEMIS number" };
  const name = normaliseText(get("name"));
  if (name === null) return { dropped: "no name" };
  const province = normaliseProvince(get("province"), get("provinceCode")) ?? normaliseProvince("", emis.slice(0, 1));
  if (province === null) return { dropped: "unknown province" };
  const sector = normaliseSector(get("sector"));
  if (sector === null) return { dropped: `unknown sector (${collapseSpaces(get("sector")) || "blank"})` };

  const coordinates =
    row.extraCells !== 0
      ? { latitude: null, longitude: null, outcome: "row_misaligned" as const }
      : repairCoordinates(get("longitude"), get("latitude"), province);
  const misaligned = coordinates.outcome === "row_misaligned";
  const firstCoordinateColumn = Math.min(columns.longitude ?? Infinity, columns.latitude ?? Infinity);
  const trusted = (column: SchoolColumn) => !misaligned || (columns[column] ?? Infinity) < firstCoordinateColumn;

  return {
    row: {
      emis_number: emis,
      name,
      province_id: province,
      district: trusted("district") ? normaliseText(get("district")) : null,
      // The README: quintile is empty for independent schools (they are not ranked), whatever a file says.
      quintile: sector === "independent" || !trusted("quintile") ? null : normaliseQuintile(get("quintile")),
      sector,
      phase,
      latitude: coordinates.latitude,
      longitude: coordinates.longitude,
    },
    coordinates: coordinates.outcome,
  };
}

/** Imports rows from already-read tables (pure; the CLI and tests feed it files). */
function importSchoolTables(tables: readonly SourceTable[]): { rows: HighSchoolRow[]; report: SchoolsReport; masterlist: MasterlistIndex } {
  const report: SchoolsReport = {
    files: [],
    rowsRead: 0,
    kept: 0,
    dropped: {},
    coordinates: {},
    textRepairs: { names: 0, districts: 0, byKind: {}, unrepaired: {} },
  };
  const byEmis = new Map<string, HighSchoolRow>();
  const masterlist: MasterlistIndex = new Map();
  const names = new RepairCounter();
  const districts = new RepairCounter();
  const drop = (reason: string, count = 1) => {
    report.dropped[reason] = (report.dropped[reason] ?? 0) + count;
  };
  for (const table of tables) {
    const { columns, missing } = mapColumns(table.headers, SCHOOL_COLUMN_ALIASES);
    const fileReport: SchoolsFileReport = {
      file: path.basename(table.file),
      sheet: table.sheet,
      rowsRead: table.rows.length,
      kept: 0,
      missingColumns: missing.filter((column) => REQUIRED_COLUMNS.includes(column)),
      usable: true,
    };
    report.files.push(fileReport);
    report.rowsRead += table.rows.length;
    if (fileReport.missingColumns.length > 0) {
      fileReport.usable = false;
      drop(`file lacks columns (${fileReport.missingColumns.join(", ")})`, table.rows.length);
      continue;
    }
    for (const sourceRow of table.rows) {
      const verdict = schoolFromRow(sourceRow, columns);
      if ("dropped" in verdict) {
        drop(verdict.dropped);
        const emis = normaliseEmis(cellAt(sourceRow, columns.emis));
        if (emis !== null && !masterlist.has(emisKey(emis))) {
          const kind = verdict.dropped.startsWith("status") ? "closed" : verdict.dropped.startsWith("phase") ? "not_secondary" : "other";
          masterlist.set(emisKey(emis), { verdict: kind, reason: verdict.dropped });
        }
        continue;
      }
      if (byEmis.has(verdict.row.emis_number)) {
        drop("duplicate NatEMIS number (first occurrence kept)");
        continue;
      }
      const row = {
        ...verdict.row,
        name: names.repair(verdict.row.name),
        district: verdict.row.district === null ? null : districts.repair(verdict.row.district),
      };
      byEmis.set(row.emis_number, row);
      masterlist.set(emisKey(row.emis_number), { verdict: "kept", province: row.province_id });
      report.coordinates[verdict.coordinates] = (report.coordinates[verdict.coordinates] ?? 0) + 1;
      fileReport.kept += 1;
    }
  }
  const rows = [...byEmis.values()].sort((a, b) => compareText(a.emis_number, b.emis_number));
  report.kept = rows.length;
  report.textRepairs.names = names.texts;
  report.textRepairs.districts = districts.texts;
  for (const counter of [names, districts]) {
    for (const [kind, n] of Object.entries(counter.repaired)) report.textRepairs.byKind[kind] = (report.textRepairs.byKind[kind] ?? 0) + n;
    for (const [kind, n] of Object.entries(counter.unrepaired)) report.textRepairs.unrepaired[kind] = (report.textRepairs.unrepaired[kind] ?? 0) + n;
  }
  return { rows, report, masterlist };
}

export async function importSchoolFiles(
  files: readonly string[],
): Promise<{ rows: HighSchoolRow[]; report: SchoolsReport; masterlist: MasterlistIndex }> {
  const tables: SourceTable[] = [];
  for (const file of files) tables.push(...(await readTables(file)));
  return importSchoolTables(tables);
}

/** Code-unit order: the same everywhere, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
