import { mkdtemp, readFile, rm, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import {
  DBE_SOURCE_URL,
  HIGH_SCHOOL_COLUMNS,
  importSchoolFiles,
  normaliseEmis,
  normalisePhase,
  normaliseProvince,
  normaliseQuintile,
  normaliseSector,
  normaliseText,
  type HighSchoolRow,
  type SchoolsReport,
} from "../../importers/schools.ts";
import { cellAt, findColumn, readCsv, readTables } from "../../importers/read-table.ts";
import { insideBox, PROVINCE_BOXES, PROVINCE_MARGIN_DEGREES } from "../../importers/coordinates.ts";
import { parseArguments, UsageError } from "../../importers/command.ts";
import { runImport } from "../../importers/run.ts";
import { writeSchoolWorkbooks } from "../fixtures/upstream/workbooks.ts";
import { ROOT } from "../../support/test-dataset.ts";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/upstream/schools");
const UPSTREAM = process.env.EDU_UPSTREAM_DIR;
const cleanup: string[] = [];
afterAll(async () => {
  for (const folder of cleanup) await rm(folder, { recursive: true, force: true });
});
async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "import-schools-"));
  cleanup.push(folder);
  return folder;
}

describe("value normalisers", () => {
  it("maps every province spelling the DBE uses to the ids of sources/provinces.csv", () => {
    expect(normaliseProvince("GT")).toBe("gauteng");
    expect(normaliseProvince("GP")).toBe("gauteng");
    expect(normaliseProvince("ES")).toBe("eastern-cape");
    expect(normaliseProvince("KwaZulu-Natal")).toBe("kwazulu-natal");
    expect(normaliseProvince("NORTH WEST")).toBe("north-west");
    expect(normaliseProvince("North-West Province")).toBe("north-west");
    expect(normaliseProvince("Free State")).toBe("free-state");
    expect(normaliseProvince("", "3")).toBe("northern-cape");
    expect(normaliseProvince("Atlantis")).toBeNull();
  });

  it("reads quintiles as Q1..Q5 or bare 1..5, and the sentinels as unknown", () => {
    expect(["Q1", "q2", "3", " Q4 ", "5", "Quintile 3"].map(normaliseQuintile)).toEqual([1, 2, 3, 4, 5, 3]);
    expect(["N/A", "99", "", "0", "Q6", "6", "NULL"].map(normaliseQuintile)).toEqual([null, null, null, null, null, null, null]);
  });

  it("reads sector and phase in any case, and nothing else", () => {
    expect(["PUBLIC", "Independent", "INDEPENDENT", "public"].map(normaliseSector)).toEqual(["public", "independent", "independent", "public"]);
    expect(normaliseSector("99")).toBeNull();
    expect(["SECONDARY SCHOOL", "Combined School", "secondary"].map(normalisePhase)).toEqual(["secondary", "combined", "secondary"]);
    expect(["PRIMARY SCHOOL", "INTERMEDIATE SCHOOL", "SPECIAL NEEDS EDUCATION", ""].map(normalisePhase)).toEqual([null, null, null, null]);
  });

  it("trims and collapses names and districts, keeping their spelling and case, and drops sentinels", () => {
    expect(normaliseText("  HOËRSKOOL \u00a0  FIXTUREVILLE ")).toBe("HOËRSKOOL FIXTUREVILLE");
    expect(normaliseText("Fixture  P/S")).toBe("Fixture P/S");
    expect(["99", "N/A", "-", ".", "", "NULL"].map(normaliseText)).toEqual([null, null, null, null, null, null]);
  });

  it("keeps NatEMIS numbers as text with their leading zeros", () => {
    expect(normaliseEmis("012345678")).toBe("012345678");
    expect(normaliseEmis("500100011.0")).toBe("500100011");
    expect(normaliseEmis("12-34")).toBeNull();
  });

  it("finds columns by header name, whatever the case, spacing or position", () => {
    const headers = ["Data Year", "natemis", "Institution_Name", "Longitude", "GIS_Latitude"];
    expect(findColumn(headers, ["officialinstitutionname", "institutionname"])).toBe(2);
    expect(findColumn(headers, ["gislongitude", "gislong", "longitude"])).toBe(3);
    expect(findColumn(headers, ["gislatitude", "latitude"])).toBe(4);
    expect(findColumn(headers, ["NatEmis"])).toBe(1);
    expect(findColumn(headers, [/^learners\d{4}$/])).toBeUndefined();
  });
});

describe("importing the fixture files (2024 workbooks, Gauteng and special-needs layouts, national CSVs)", () => {
  let rows: HighSchoolRow[];
  let report: SchoolsReport;
  const byEmis = (emis: string) => rows.find((row) => row.emis_number === emis);

  beforeAll(async () => {
    const folder = await tempFolder();
    const workbooks = await writeSchoolWorkbooks(folder);
    ({ rows, report } = await importSchoolFiles([
      workbooks.standard,
      workbooks.gauteng,
      workbooks.specialNeeds,
      path.join(FIXTURES, "national-2025.csv"),
      path.join(FIXTURES, "national-comma.csv"),
    ]));
  });

  it("keeps exactly the open secondary and combined schools, sorted by NatEMIS", () => {
    expect(rows.map((row) => row.emis_number)).toEqual([
      "012345678",
      "100000008",
      "100000009",
      "100000012",
      "100000401",
      "100000402",
      "200000002",
      "200000201",
      "300000001",
      "400000302",
      "500000005",
      "500000301",
      "700000101",
      "700000102",
      "800000004",
      "800000007",
      "900000003",
      "900000006",
    ]);
    expect(report.kept).toBe(18);
    expect(report.rowsRead).toBe(13 + 3 + 2 + 5 + 2);
  });

  it("reports every dropped row with its reason", () => {
    expect(report.dropped).toEqual({
      "phase not secondary or combined (PRIMARY SCHOOL)": 3,
      "phase not secondary or combined (blank)": 1,
      "phase not secondary or combined (SPECIAL NEEDS EDUCATION)": 1,
      "status not open (PENDING OPEN)": 1,
      "duplicate NatEMIS number (first occurrence kept)": 1,
    });
    expect(report.files.map((file) => [file.file, file.rowsRead, file.kept])).toEqual([
      ["Fixture-Provinces.xlsx", 13, 10],
      ["Fixture-Gauteng.xlsx", 3, 2],
      ["Fixture-Special-Needs-Education-Centres.xlsx", 2, 1],
      ["national-2025.csv", 5, 3],
      ["national-comma.csv", 2, 2],
    ]);
  });

  it("repairs or nulls every kind of coordinate defect, and counts each kind", () => {
    expect(report.coordinates).toEqual({
      ok: 7,
      swapped: 3,
      missing_decimal: 1,
      missing_decimal_swapped: 1,
      zero: 1,
      missing: 1,
      outside_south_africa: 1,
      outside_province: 1,
      row_misaligned: 2,
    });
    expect(byEmis("300000001")).toMatchObject({ latitude: -29.07075, longitude: 23.68877 });
    expect(byEmis("200000002")).toMatchObject({ latitude: -32.95, longitude: 27.9 });
    expect(byEmis("900000003")).toMatchObject({ latitude: -23.403131, longitude: 30.225617 });
    expect(byEmis("200000201")).toMatchObject({ latitude: -33.9965, longitude: 25.66782 });
    expect(byEmis("400000302")).toMatchObject({ latitude: -29.12, longitude: 26.21 });
    expect(byEmis("012345678")).toMatchObject({ latitude: -25.7479, longitude: 28.1873 });
    for (const emis of ["800000004", "500000005", "900000006", "800000007", "100000008", "100000402"]) {
      expect(byEmis(emis), emis).toMatchObject({ latitude: null, longitude: null });
    }
  });

  it("publishes no coordinate outside the school's province box", () => {
    for (const row of rows) {
      if (row.latitude === null || row.longitude === null) continue;
      expect(insideBox(PROVINCE_BOXES[row.province_id], row.latitude, row.longitude, PROVINCE_MARGIN_DEGREES), row.emis_number).toBe(true);
    }
  });

  it("normalises names, provinces, sectors, phases and quintiles across the layouts", () => {
    expect(byEmis("300000001")).toEqual({
      emis_number: "300000001",
      name: "HOËRSKOOL FIXTUREVILLE",
      province_id: "northern-cape",
      district: "JOHN TAOLO GAETSEWE (JTG)",
      quintile: 3,
      sector: "public",
      phase: "secondary",
      latitude: -29.07075,
      longitude: 23.68877,
    });
    expect(byEmis("700000101")).toEqual({
      emis_number: "700000101",
      name: "FIXTURE REEF HIGH SCHOOL",
      province_id: "gauteng",
      district: "JOHANNESBURG EAST",
      quintile: 4,
      sector: "public",
      phase: "secondary",
      latitude: -26.188765,
      longitude: 28.101235,
    });
    expect(byEmis("200000002")).toMatchObject({ name: "Fixture Mission High School", sector: "public", phase: "secondary", quintile: 1 });
    expect(byEmis("900000003")).toMatchObject({ phase: "combined", quintile: 2 });
    expect(byEmis("500000301")).toMatchObject({ province_id: "kwazulu-natal", sector: "independent", name: "Fixture Valley Combined School" });
    expect(byEmis("200000201")).toMatchObject({ province_id: "eastern-cape", phase: "combined" });
    // unknown markers
    expect(byEmis("800000004")?.quintile).toBeNull();
    expect(byEmis("500000005")?.quintile).toBeNull();
    // independent schools carry no quintile, whatever the file says
    expect(byEmis("800000007")).toMatchObject({ sector: "independent", quintile: null });
    // on a misaligned row the cells after the coordinates belong to other columns: quintile is not trusted
    expect(byEmis("100000008")).toMatchObject({ quintile: null, district: "METRO NORTH", name: "FIXTURE SHIFTED ACADEMY" });
    // the first of two rows with one NatEMIS is the one kept
    expect(byEmis("100000009")?.name).toBe("FIXTURE MOUNTAIN HIGH SCHOOL");
  });

  it("repairs the halfwidth katakana a legacy code page left in names and districts, and counts each repair", () => {
    expect(byEmis("100000012")).toMatchObject({ name: "FIXTUREDORP HOËRSKOOL", district: "WEST COAST SEKONDÊR" });
    expect(report.textRepairs).toEqual({ names: 1, districts: 1, byKind: { "ﾋ -> Ë": 1, "ﾊ -> Ê": 1 }, unrepaired: {} });
    for (const row of rows) expect(`${row.name} ${row.district}`).not.toMatch(/[\uff61-\uff9f]/u);
  });

  it("reads the `;` national CSV with decimal commas and keeps leading zeros", () => {
    const table = readCsv("x.csv", "NatEmis;GIS_Long;GIS_Lat\n012345678;28,1873;-25,7479\n");
    expect(table.headers).toEqual(["NatEmis", "GIS_Long", "GIS_Lat"]);
    expect(table.rows[0]).toEqual({ line: 2, cells: ["012345678", "28,1873", "-25,7479"], extraCells: 0 });
    expect(byEmis("012345678")).toMatchObject({ province_id: "gauteng", quintile: 4 });
  });
});

describe("npm run import -- schools", () => {
  it("parses its arguments and refuses bad ones", () => {
    expect(parseArguments(["schools", "a.xlsx", "b.csv", "--out", "/tmp/x", "--verified-on", "2026-01-02"], "2026-05-01")).toEqual({
      dataset: "schools",
      inputs: ["a.xlsx", "b.csv"],
      outDir: path.resolve("/tmp/x"),
      verifiedOn: "2026-01-02",
    });
    expect(() => parseArguments(["schools"], "2026-05-01")).toThrow(UsageError);
    expect(() => parseArguments(["teachers", "a.csv"], "2026-05-01")).toThrow(UsageError);
    expect(() => parseArguments(["schools", "a.csv", "--verified-on", "2026-02-30"], "2026-05-01")).toThrow(UsageError);
    expect(() => parseArguments(["schools", "a.csv", "--verified-on", "2026-06-01"], "2026-05-01")).toThrow(/future/);
    expect(() => parseArguments(["schools", "a.csv", "--bogus"], "2026-05-01")).toThrow(UsageError);
  });

  it("writes high-schools.csv in the sources/README.md format, byte-identical on a re-run, atomically", async () => {
    const input = await tempFolder();
    await writeSchoolWorkbooks(input);
    const outDir = path.join(await tempFolder(), "imported");
    const options = { dataset: "schools" as const, inputs: [input, FIXTURES], outDir, verifiedOn: "2026-01-15" };
    const first = await runImport(options);
    const text = await readFile(first.outputFile, "utf8");
    await runImport(options);
    expect(await readFile(first.outputFile, "utf8")).toBe(text);
    expect(await readdir(outDir)).toEqual(["high-schools.csv"]);

    const lines = text.split("\n");
    expect(lines[0]).toBe(HIGH_SCHOOL_COLUMNS.join(","));
    expect(text.endsWith("\n")).toBe(true);
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(18);
    expect(first.rows).toBe(18);
    expect(records.find((r) => r.emis_number === "300000001")).toEqual({
      emis_number: "300000001",
      name: "HOËRSKOOL FIXTUREVILLE",
      province_id: "northern-cape",
      district: "JOHN TAOLO GAETSEWE (JTG)",
      quintile: "3",
      sector: "public",
      phase: "secondary",
      latitude: "-29.07075",
      longitude: "23.68877",
      source_url: DBE_SOURCE_URL,
      verified_on: "2026-01-15",
    });
    expect(records.find((r) => r.emis_number === "800000004")).toMatchObject({ quintile: "", latitude: "", longitude: "" });
    expect(first.reportText).toMatch(/Fixture-Gauteng\.xlsx \[GT\]: 3 rows read, 2 kept/);
    expect(first.reportText).toMatch(/1\s+repaired: missing decimal swapped/);
    expect(first.reportText).toMatch(/1\s+set to null: outside province/);
  });
});

describe.skipIf(!UPSTREAM)("the real DBE 2024 workbooks (EDU_UPSTREAM_DIR)", () => {
  if (!UPSTREAM) console.warn("skipped: set EDU_UPSTREAM_DIR to a folder with schools/*.xlsx to test against the real DBE files");
  let rows: HighSchoolRow[];
  let report: SchoolsReport;

  beforeAll(async () => {
    const folder = path.join(UPSTREAM ?? "", "schools");
    const files = (await readdir(folder)).filter((name) => name.endsWith(".xlsx")).map((name) => path.join(folder, name));
    ({ rows, report } = await importSchoolFiles(files));
  }, 120_000);

  it("keeps the secondary and combined schools datasets.md counts per province, all nine provinces", () => {
    const perProvince: Record<string, number> = {};
    for (const row of rows) perProvince[row.province_id] = (perProvince[row.province_id] ?? 0) + 1;
    // reference/datasets.md, "NSC-phase (sec+comb)" (special-needs rows counted in their own province).
    expect(perProvince).toEqual({
      "eastern-cape": 1592,
      "free-state": 378,
      gauteng: 1436,
      "kwazulu-natal": 2119,
      limpopo: 1412,
      mpumalanga: 711,
      "north-west": 507,
      "northern-cape": 155,
      "western-cape": 603,
    });
    expect(rows).toHaveLength(8913);
    expect(rows.filter((row) => row.sector === "independent")).toHaveLength(141 + 51 + 675 + 165 + 123 + 73 + 41 + 19 + 195);
    expect(report.rowsRead).toBe(25_542);
  });

  it("has unique 9-digit NatEMIS numbers and only null or in-province coordinates", () => {
    expect(new Set(rows.map((row) => row.emis_number)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.emis_number).toMatch(/^\d{9}$/);
      expect((row.latitude === null) === (row.longitude === null)).toBe(true);
      if (row.latitude === null || row.longitude === null) continue;
      expect(insideBox(PROVINCE_BOXES[row.province_id], row.latitude, row.longitude, PROVINCE_MARGIN_DEGREES), row.emis_number).toBe(true);
    }
  });

  it("puts the Eastern and Northern Cape schools inside their provinces: swapped, and without a decimal point in the Northern Cape", () => {
    // datasets.md: every Eastern Cape row is swapped (fixed_swapped), every Northern Cape row swapped and
    // without its decimal point (fixed_decimal_swapped); EC 1,577 and NC 136 NSC rows have usable coordinates.
    expect(report.coordinates.swapped).toBe(1566);
    expect(report.coordinates.missing_decimal_swapped).toBe(136);
    for (const [province, usable] of [
      ["eastern-cape", 1577],
      ["northern-cape", 136],
    ] as const) {
      const placed = rows.filter((row) => row.province_id === province && row.latitude !== null);
      expect(placed.length, province).toBeGreaterThan(usable - 20);
      expect(placed.length, province).toBeLessThanOrEqual(usable);
      for (const row of placed)
        expect(insideBox(PROVINCE_BOXES[province], row.latitude ?? 0, row.longitude ?? 0, PROVINCE_MARGIN_DEGREES)).toBe(true);
    }
  });

  it("repairs the lost decimal points and nulls the misaligned Western Cape rows", () => {
    expect(report.coordinates.missing_decimal ?? 0).toBeGreaterThan(0);
    expect(report.coordinates.row_misaligned ?? 0).toBeGreaterThan(0);
    const withCoordinates = rows.filter((row) => row.latitude !== null).length;
    // datasets.md: 8,790 NSC rows have usable coordinates before its province-box check, which flags a few
    // dozen more.
    expect(withCoordinates).toBeGreaterThan(8_700);
    expect(withCoordinates).toBeLessThanOrEqual(8_790);
  });

  it("repairs the 183 names whose Ë and Ê the Western Cape workbook stores as halfwidth katakana, and 18 written HOëRSKOOL", () => {
    expect(report.textRepairs).toEqual({
      names: 183 + 18,
      districts: 0,
      byKind: { "ﾊ -> Ê": 98, "ﾋ -> Ë": 86, "ë -> Ë": 17, "é -> É": 2 },
      unrepaired: {},
    });
    // No word in capitals keeps a small accented letter (the 5 names written in small letters, "Hoër Tegniese Skool", keep theirs).
    expect(rows.filter((row) => /(?=\p{L}*[A-Z])(?!\p{L}*[a-z])\p{L}*\p{Ll}/u.test(row.name)).map((row) => row.name)).toEqual([]);
    expect(rows.filter((row) => /ë|é/.test(row.name)).map((row) => row.name)).toHaveLength(5);
    expect(rows.find((row) => row.emis_number === "200100313")?.name).toBe("HOËRSKOOL CILLIÉ");
    expect(rows.filter((row) => /[\uff61-\uff9f]/u.test(row.name))).toEqual([]);
    expect(rows.find((row) => row.emis_number === "100000124")?.name).toBe("LOUWVILLE HOËRSKOOL");
  });

  it("keeps the schools named PRIMARY because the masterlist's phase (Phase_PED) says combined or secondary", async () => {
    // The name is the official one: a school that grew beyond the primary grades keeps it. What makes a school
    // a high school here is its phase in the masterlist, read as written (no other column is consulted).
    const named = rows.filter((row) => /PRIMARY/i.test(row.name));
    expect(named.length).toBe(260);
    const raw = new Map<string, string>();
    const folder = path.join(UPSTREAM ?? "", "schools");
    for (const name of (await readdir(folder)).filter((n) => n.endsWith(".xlsx"))) {
      for (const table of await readTables(path.join(folder, name))) {
        const emis = findColumn(table.headers, ["natemis"]);
        const phase = findColumn(table.headers, ["phaseped", "phase"]);
        for (const row of table.rows) raw.set(cellAt(row, emis).padStart(9, "0"), cellAt(row, phase).trim());
      }
    }
    const phases: Record<string, number> = {};
    for (const row of named) phases[raw.get(row.emis_number) ?? "(not found)"] = (phases[raw.get(row.emis_number) ?? "(not found)"] ?? 0) + 1;
    expect(phases).toEqual({ "COMBINED SCHOOL": 254, "SECONDARY SCHOOL": 6 });
  }, 120_000);

  it("gives exactly the committed sources/high-schools.csv", async () => {
    const committed = await readFile(path.join(ROOT, "sources", "high-schools.csv"), "utf8");
    const verifiedOn = committed.split("\n")[1]?.split(",").at(-1) ?? "";
    const outDir = await tempFolder();
    const result = await runImport({ dataset: "schools", inputs: [path.join(UPSTREAM ?? "", "schools")], outDir, verifiedOn });
    expect(await readFile(result.outputFile, "utf8")).toBe(committed);
  }, 120_000);
});
