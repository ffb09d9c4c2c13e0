// The SAPO postal code list -> rows of postal-codes.csv (sources/, or --out DIR). SAPO publishes one spreadsheet
// (postalcodes.xls) with suburb, area, box code and street code; republished copies are `;` or `,` CSV
// with the columns renamed and reordered, so columns are found by what their header contains.
// reference: /work/shared/reference/datasets.md section (b).
import path from "node:path";
import { cellAt, collapseSpaces, normaliseHeader, readTables, type SourceTable } from "./read-table.ts";
import { compareText } from "./schools.ts";
import type { ProvinceId } from "./coordinates.ts";

/** SAPO's postal code list; the page it is linked from has moved over the years, the file has not. */
export const SAPO_SOURCE_URL = "https://www.postoffice.co.za/contactus/postalcodes.xls";

export const POSTAL_CODE_COLUMNS = ["suburb", "area", "street_code", "box_code", "province_id", "source_url", "verified_on"] as const;

export type PostalCodeRow = {
  suburb: string;
  /** null where SAPO writes a placeholder instead of an area (`-`: 213 rows of the 2026 list). */
  area: string | null;
  street_code: string | null;
  box_code: string | null;
  province_id: ProvinceId | null;
};

/**
 * Postal code ranges by province, as listed in Wikipedia's "List of postal codes in South Africa" (the
 * SAPO assigns codes by delivery region, and the regions predate the 1994 provinces). APPROXIMATE: the
 * ranges do not follow provincial borders exactly (Sasolburg, 1947, is in the Free State; Aliwal North,
 * 9750, is in the Eastern Cape), so a derived province is a hint, not a fact. 9000-9299 (formerly South
 * West Africa, now Namibia) and anything outside the ranges gets no province.
 */
export const POSTAL_CODE_PROVINCE_RANGES: readonly { from: number; to: number; province: ProvinceId }[] = [
  { from: 1, to: 299, province: "gauteng" },
  { from: 300, to: 499, province: "north-west" },
  { from: 500, to: 999, province: "limpopo" },
  { from: 1000, to: 1399, province: "mpumalanga" },
  { from: 1400, to: 2199, province: "gauteng" },
  { from: 2200, to: 2499, province: "mpumalanga" },
  { from: 2500, to: 2899, province: "north-west" },
  { from: 2900, to: 4730, province: "kwazulu-natal" },
  { from: 4731, to: 6499, province: "eastern-cape" },
  { from: 6500, to: 8099, province: "western-cape" },
  { from: 8100, to: 8999, province: "northern-cape" },
  { from: 9300, to: 9999, province: "free-state" },
];

export function provinceForPostalCode(code: string | null): ProvinceId | null {
  if (code === null) return null;
  const value = Number(code);
  return POSTAL_CODE_PROVINCE_RANGES.find((range) => value >= range.from && value <= range.to)?.province ?? null;
}

/**
 * A postal code as 4-digit text. A spreadsheet that stored codes as numbers lost their leading zeros
 * (`608` for `0608`); they are put back. Blank, `0`, and anything but 1 to 4 digits is no code.
 */
export function normalisePostalCode(raw: string): string | null {
  const match = /^(\d{1,4})(?:\.0+)?$/.exec(raw.trim());
  if (!match?.[1]) return null;
  const code = match[1].padStart(4, "0");
  return code === "0000" ? null : code;
}

/**
 * An area as the list writes it, or null for a placeholder that names no area: a cell of dashes only
 * (`-`, `--`). Clients get null, the API's one way of saying "no value", rather than a string to recognise.
 */
export function areaOf(text: string): string | null {
  return /^-+$/.test(text) ? null : text;
}

/**
 * Columns by what the header contains, tried in order (SAPO's own headers are not known for certain:
 * `SUBURB`, `AREA`, `BOX-CODE`/`BOX CODE`, `STR-CODE`/`STREET CODE` are the usual ones; a republished copy
 * uses `Suburb;BoxCode;StreetCode;Area`).
 */
const POSTAL_COLUMN_PATTERNS = {
  suburb: [/suburb/, /place/, /locality/],
  area: [/area/, /town/, /city/],
  box: [/box/],
  street: [/^str/, /street/],
} as const;

export function findPostalColumns(headers: readonly string[]) {
  const normalised = headers.map(normaliseHeader);
  const taken = new Set<number>();
  const columns: Partial<Record<keyof typeof POSTAL_COLUMN_PATTERNS, number>> = {};
  for (const key of ["suburb", "area", "street", "box"] as const) {
    for (const pattern of POSTAL_COLUMN_PATTERNS[key]) {
      const index = normalised.findIndex((header, i) => !taken.has(i) && pattern.test(header));
      if (index >= 0) {
        columns[key] = index;
        taken.add(index);
        break;
      }
    }
  }
  return columns;
}

export type PostalCodesReport = {
  /** `usable` false: the file lacks suburb, area or both code columns, so none of its rows were read. */
  files: { file: string; sheet: string | null; rowsRead: number; missingColumns: string[]; usable: boolean }[];
  rowsRead: number;
  kept: number;
  duplicatesMerged: number;
  dropped: Record<string, number>;
  invalidCodes: number;
  byProvince: Record<string, number>;
};

export function importPostalCodeTables(tables: readonly SourceTable[]): { rows: PostalCodeRow[]; report: PostalCodesReport } {
  const report: PostalCodesReport = {
    files: [],
    rowsRead: 0,
    kept: 0,
    duplicatesMerged: 0,
    dropped: {},
    invalidCodes: 0,
    byProvince: {},
  };
  const drop = (reason: string, count = 1) => {
    report.dropped[reason] = (report.dropped[reason] ?? 0) + count;
  };
  const byKey = new Map<string, PostalCodeRow>();
  for (const table of tables) {
    const columns = findPostalColumns(table.headers);
    const missingColumns = (["suburb", "area", "box", "street"] as const).filter((key) => columns[key] === undefined);
    // One of the two code columns may be absent from a file; suburb and area may not.
    const usable = !missingColumns.includes("suburb") && !missingColumns.includes("area") && missingColumns.length <= 2;
    report.files.push({ file: path.basename(table.file), sheet: table.sheet, rowsRead: table.rows.length, missingColumns, usable });
    report.rowsRead += table.rows.length;
    if (!usable) {
      drop(`file lacks columns (${missingColumns.join(", ")})`, table.rows.length);
      continue;
    }
    for (const sourceRow of table.rows) {
      const suburb = collapseSpaces(cellAt(sourceRow, columns.suburb));
      const areaText = collapseSpaces(cellAt(sourceRow, columns.area));
      const area = areaOf(areaText);
      const rawStreet = cellAt(sourceRow, columns.street).trim();
      const rawBox = cellAt(sourceRow, columns.box).trim();
      const street_code = normalisePostalCode(rawStreet);
      const box_code = normalisePostalCode(rawBox);
      if ((rawStreet !== "" && street_code === null) || (rawBox !== "" && box_code === null)) report.invalidCodes += 1;
      if (suburb === "") {
        drop("no suburb");
        continue;
      }
      if (areaText === "") {
        drop("no area");
        continue;
      }
      if (street_code === null && box_code === null) {
        drop("no valid street or box code");
        continue;
      }
      const key = [suburb, area ?? "", street_code ?? "", box_code ?? ""].join("\u0000");
      if (byKey.has(key)) {
        report.duplicatesMerged += 1;
        continue;
      }
      byKey.set(key, { suburb, area, street_code, box_code, province_id: provinceForPostalCode(street_code ?? box_code) });
    }
  }
  const rows = [...byKey.values()].sort(
    (a, b) =>
      compareText(a.suburb, b.suburb) ||
      compareText(a.area ?? "", b.area ?? "") ||
      compareText(a.street_code ?? "", b.street_code ?? "") ||
      compareText(a.box_code ?? "", b.box_code ?? ""),
  );
  report.kept = rows.length;
  for (const row of rows) {
    const province = row.province_id ?? "(none)";
    report.byProvince[province] = (report.byProvince[province] ?? 0) + 1;
  }
  return { rows, report };
}

export async function importPostalCodeFiles(files: readonly string[]) {
  const tables: SourceTable[] = [];
  for (const file of files) tables.push(...(await readTables(file)));
  return importPostalCodeTables(tables);
}
