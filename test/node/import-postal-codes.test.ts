import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import {
  areaOf,
  findPostalColumns,
  importPostalCodeFiles,
  importPostalCodeTables,
  normalisePostalCode,
  POSTAL_CODE_COLUMNS,
  POSTAL_CODE_PROVINCE_RANGES,
  provinceForPostalCode,
  SAPO_SOURCE_URL,
  type PostalCodeRow,
  type PostalCodesReport,
} from "../../importers/postal-codes.ts";
import { readCsv } from "../../importers/read-table.ts";
import { parseArguments, UsageError } from "../../importers/command.ts";
import { runImport } from "../../importers/run.ts";
import { writeLegacyXls, writePostalCodesXlsx } from "../fixtures/upstream/workbooks.ts";
import { ROOT } from "../../support/test-dataset.ts";

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/upstream/postal-codes/postalcodes.csv");
const UPSTREAM = process.env.EDU_UPSTREAM_DIR;
const cleanup: string[] = [];
afterAll(async () => {
  for (const folder of cleanup) await rm(folder, { recursive: true, force: true });
});
async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "import-postal-"));
  cleanup.push(folder);
  return folder;
}

describe("postal code values", () => {
  it("keeps codes as 4-digit text and restores leading zeros a spreadsheet lost", () => {
    expect(["0608", "608", "2", "7441", " 9301 ", "608.0"].map(normalisePostalCode)).toEqual(["0608", "0608", "0002", "7441", "9301", "0608"]);
    expect(["", "0", "12345", "A123", "-1"].map(normalisePostalCode)).toEqual([null, null, null, null, null]);
  });

  it("derives the province from the code ranges, and none outside them", () => {
    expect(provinceForPostalCode("0002")).toBe("gauteng");
    expect(provinceForPostalCode("0608")).toBe("limpopo");
    expect(provinceForPostalCode("2196")).toBe("gauteng");
    expect(provinceForPostalCode("4001")).toBe("kwazulu-natal");
    expect(provinceForPostalCode("6001")).toBe("eastern-cape");
    expect(provinceForPostalCode("8001")).toBe("western-cape");
    expect(provinceForPostalCode("8301")).toBe("northern-cape");
    expect(provinceForPostalCode("9301")).toBe("free-state");
    expect(provinceForPostalCode("9100")).toBeNull();
    expect(provinceForPostalCode(null)).toBeNull();
  });

  it("has ranges that do not overlap and are in order", () => {
    for (let i = 1; i < POSTAL_CODE_PROVINCE_RANGES.length; i++) {
      const previous = POSTAL_CODE_PROVINCE_RANGES[i - 1];
      const current = POSTAL_CODE_PROVINCE_RANGES[i];
      expect(previous && current && previous.to < current.from).toBe(true);
    }
  });

  it("finds the columns by what their headers contain, in any order", () => {
    expect(findPostalColumns(["id", "Suburb", "BoxCode", "StreetCode", "Area"])).toEqual({ suburb: 1, area: 4, street: 3, box: 2 });
    expect(findPostalColumns(["SUBURB", "AREA", "BOX-CODE", "STR-CODE"])).toEqual({ suburb: 0, area: 1, street: 3, box: 2 });
    expect(findPostalColumns(["Street Code", "Town", "Box Code", "Suburb Name"])).toEqual({ suburb: 3, area: 1, street: 0, box: 2 });
  });
});

describe("importing the fixture list (`;` CSV in the republished layout)", () => {
  let rows: PostalCodeRow[];
  let report: PostalCodesReport;

  beforeAll(async () => {
    ({ rows, report } = await importPostalCodeFiles([FIXTURE]));
  });

  it("keeps rows with a suburb, an area and a code; merges exact duplicates; skips commented lines", () => {
    expect(rows).toEqual([
      { suburb: "FIXTURE BORDERPOST", area: "FIXTUREDRIFT", street_code: null, box_code: "9100", province_id: null },
      { suburb: "FIXTURE GARDENS", area: "DOONHILL", street_code: null, box_code: "4126", province_id: "kwazulu-natal" },
      { suburb: "FIXTURE HEIGHTS", area: "FIXTUREBURG", street_code: "2196", box_code: "2196", province_id: "gauteng" },
      { suburb: "FIXTURE NOORD", area: "FIXTURETON", street_code: "0609", box_code: "0608", province_id: "limpopo" },
      { suburb: "FIXTURE NORTH", area: "FIXTURETON", street_code: "0609", box_code: "0608", province_id: "limpopo" },
      { suburb: "FIXTUREPARK", area: "FIXTURE BAY", street_code: "7441", box_code: null, province_id: "western-cape" },
    ]);
    expect(report.rowsRead).toBe(10);
    expect(report.duplicatesMerged).toBe(1);
    expect(report.dropped).toEqual({ "no valid street or box code": 1, "no area": 1, "no suburb": 1 });
  });

  it("gives a null area where the list writes a placeholder (`-`) instead of one, and keeps the row", () => {
    const table = readCsv(
      "dashes.csv",
      "Suburb,Area,Box Code,Street Code\nFRASERBURG,-,6960,6960\nGEDLEZA, -- ,3941,\nFIXTURE-TON,FIXTURE-BAY,7441,\n",
    );
    expect(importPostalCodeTables([table]).rows).toEqual([
      { suburb: "FIXTURE-TON", area: "FIXTURE-BAY", street_code: null, box_code: "7441", province_id: "western-cape" },
      { suburb: "FRASERBURG", area: null, street_code: "6960", box_code: "6960", province_id: "western-cape" },
      { suburb: "GEDLEZA", area: null, street_code: null, box_code: "3941", province_id: "kwazulu-natal" },
    ]);
    expect(["-", "--", "A-B", "-X", ""].map(areaOf)).toEqual([null, null, "A-B", "-X", ""]);
  });

  it("leaves no placeholder area in the committed table (sources/postal-codes.csv)", async () => {
    const records = parse(await readFile(path.join(ROOT, "sources", "postal-codes.csv"), "utf8"), { columns: true }) as Record<string, string>[];
    expect(records.length).toBeGreaterThan(20_000);
    expect(records.filter((r) => /^[-\s]*-[-\s]*$/.test(r.area ?? ""))).toEqual([]);
    // SAPO's 213 placeholder rows, kept with an empty area (null in the API).
    expect(records.filter((r) => r.area === "").length).toBe(213);
  });

  it("reads `,` CSV files with other header names the same way", () => {
    const table = readCsv("other.csv", "Suburb,Town,Box Code,Street Code\nFIXTURE CENTRAL,FIXTUREPOLIS,1,2\n");
    expect(importPostalCodeTables([table]).rows).toEqual([
      { suburb: "FIXTURE CENTRAL", area: "FIXTUREPOLIS", street_code: "0002", box_code: "0001", province_id: "gauteng" },
    ]);
  });

  it("refuses a legacy .xls workbook with a message that names the file and says how to convert it", async () => {
    const folder = await tempFolder();
    const file = path.join(folder, "postalcodes.xls");
    await writeLegacyXls(file);
    await expect(importPostalCodeFiles([file])).rejects.toThrow(
      /^postalcodes\.xls is a legacy Excel 97-2003 workbook, which the importers do not read: .*save it as \.xlsx or CSV/,
    );
    // the same bytes under another name are recognised by their signature
    const renamed = path.join(folder, "postalcodes.xlsx");
    await writeLegacyXls(renamed);
    await expect(importPostalCodeFiles([renamed])).rejects.toThrow(/postalcodes\.xlsx is a legacy Excel 97-2003 workbook/);
  });

  it("reads a SAPO-style list saved as .xlsx whose codes are numbers", async () => {
    const file = path.join(await tempFolder(), "postalcodes.xlsx");
    await writePostalCodesXlsx(file);
    const { rows: fromXls } = await importPostalCodeFiles([file]);
    expect(fromXls).toEqual([
      { suburb: "FIXTURE CENTRAL", area: "FIXTUREPOLIS", street_code: "0002", box_code: "0001", province_id: "gauteng" },
      { suburb: "FIXTURE HILL", area: "FIXTUREPOLIS", street_code: null, box_code: "0608", province_id: "limpopo" },
      { suburb: "FIXTURE VALE", area: "FIXTURE BAY", street_code: "7441", box_code: null, province_id: "western-cape" },
    ]);
  });
});

describe("npm run import -- postal-codes", () => {
  it("takes exactly one file", () => {
    expect(() => parseArguments(["postal-codes", "a.csv", "b.csv"], "2026-05-01")).toThrow(UsageError);
    expect(parseArguments(["postal-codes", "a.csv"], "2026-05-01").verifiedOn).toBe("2026-05-01");
  });

  it("writes postal-codes.csv in the sources/README.md format, byte-identical on a re-run", async () => {
    const outDir = path.join(await tempFolder(), "imported");
    const options = { dataset: "postal-codes" as const, inputs: [FIXTURE], outDir, verifiedOn: "2026-02-03" };
    const first = await runImport(options);
    const text = await readFile(first.outputFile, "utf8");
    await runImport(options);
    expect(await readFile(first.outputFile, "utf8")).toBe(text);
    expect(text.split("\n")[0]).toBe(POSTAL_CODE_COLUMNS.join(","));
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(6);
    expect(records[3]).toEqual({
      suburb: "FIXTURE NOORD",
      area: "FIXTURETON",
      street_code: "0609",
      box_code: "0608",
      province_id: "limpopo",
      source_url: SAPO_SOURCE_URL,
      verified_on: "2026-02-03",
    });
    expect(records[0]?.province_id).toBe("");
    expect(first.reportText).toMatch(/10 rows read, 6 kept, 1 exact duplicates merged, 3 dropped/);
  });
});

describe.skipIf(!UPSTREAM)("the real SAPO list (EDU_UPSTREAM_DIR)", () => {
  if (!UPSTREAM) console.warn("skipped: set EDU_UPSTREAM_DIR to a folder with postal-codes/postalcodes.csv to test against the real SAPO list");
  let rows: PostalCodeRow[];
  let report: PostalCodesReport;

  beforeAll(async () => {
    ({ rows, report } = await importPostalCodeFiles([path.join(UPSTREAM ?? "", "postal-codes", "postalcodes.csv")]));
  });

  it("gives about 21,000 rows, each with a suburb, an area and 4-digit codes", () => {
    // datasets.md: 21,128 data rows, 113 without an area, 6 exact duplicates.
    expect(report.rowsRead).toBe(21_128);
    expect(rows.length).toBeGreaterThan(20_900);
    expect(rows.length).toBeLessThanOrEqual(21_128 - 113);
    for (const row of rows) {
      expect(row.suburb).not.toBe("");
      expect(row.area).not.toBe("");
      expect(row.area).not.toBe("-");
      expect(row.street_code ?? row.box_code).toMatch(/^\d{4}$/);
      if (row.street_code !== null) expect(row.street_code).toMatch(/^\d{4}$/);
      if (row.box_code !== null) expect(row.box_code).toMatch(/^\d{4}$/);
    }
    const keys = new Set(rows.map((row) => [row.suburb, row.area, row.street_code, row.box_code].join("|")));
    expect(keys.size).toBe(rows.length);
  });

  it("restores the leading zeros and places most rows in Gauteng, as datasets.md found", () => {
    expect(rows.some((row) => row.box_code?.startsWith("0") || row.street_code?.startsWith("0"))).toBe(true);
    const gauteng = rows.filter((row) => row.province_id === "gauteng").length;
    expect(gauteng).toBeGreaterThan(9_000);
    expect(rows.filter((row) => row.province_id === null).length).toBeLessThan(100);
  });

  it("gives exactly the committed sources/postal-codes.csv", async () => {
    const committed = await readFile(path.join(ROOT, "sources", "postal-codes.csv"), "utf8");
    const verifiedOn = committed.split("\n")[1]?.split(",").at(-1) ?? "";
    const outDir = await tempFolder();
    const result = await runImport({
      dataset: "postal-codes",
      inputs: [path.join(UPSTREAM ?? "", "postal-codes", "postalcodes.csv")],
      outDir,
      verifiedOn,
    });
    expect(await readFile(result.outputFile, "utf8")).toBe(committed);
  });
});
