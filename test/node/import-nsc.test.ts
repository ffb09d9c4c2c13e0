// The NSC School Performance Report importer (importers/nsc.ts): both layouts (the JSON transcription, the
// CSV with year columns, and that CSV as a workbook), every defect of the circulating copies, the join to
// the masterlist, bad files; and the real report when EDU_UPSTREAM_DIR is set.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import {
  agreesWithinRounding,
  importNscFiles,
  normaliseNscEmis,
  NSC_RESULT_COLUMNS,
  NSC_SOURCE_URL,
  parseCount,
  parsePercentage,
  passRate,
  readNscFile,
  type NscReport,
  type NscResultRow,
} from "../../importers/nsc.ts";
import { importSchoolFiles, type MasterlistIndex } from "../../importers/schools.ts";
import { importNational, runImport, UnusableFilesError } from "../../importers/run.ts";
import { UnreadableFileError } from "../../importers/read-table.ts";
import { parseArguments } from "../../importers/command.ts";
import { writeRowsAsWorkbook } from "../fixtures/upstream/workbooks.ts";
import { ROOT } from "../../support/test-dataset.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NSC_FIXTURES = path.resolve(HERE, "../fixtures/upstream/nsc");
const SCHOOL_FIXTURES = path.resolve(HERE, "../fixtures/upstream/schools");
const JSON_FIXTURE = path.join(NSC_FIXTURES, "school-performance-2025.json");
const CSV_FIXTURE = path.join(NSC_FIXTURES, "school-performance-2024.csv");
const UPSTREAM = process.env.EDU_UPSTREAM_DIR;

const cleanup: string[] = [];
afterAll(async () => {
  for (const folder of cleanup) await rm(folder, { recursive: true, force: true });
});
async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "import-nsc-"));
  cleanup.push(folder);
  return folder;
}

async function fixtureMasterlist(): Promise<MasterlistIndex> {
  const files = (await readdir(SCHOOL_FIXTURES)).map((name) => path.join(SCHOOL_FIXTURES, name));
  return (await importSchoolFiles(files)).masterlist;
}

describe("values", () => {
  it("normalises EMIS numbers: stray spaces anywhere, lost leading zeros restored to nine digits", () => {
    expect(normaliseNscEmis("200500039")).toEqual({ emis: "200500039", hadSpaces: false, padded: false });
    expect(normaliseNscEmis("200500039 ")).toEqual({ emis: "200500039", hadSpaces: true, padded: false });
    expect(normaliseNscEmis(" 2005 00039\u00a0")).toEqual({ emis: "200500039", hadSpaces: true, padded: false });
    expect(normaliseNscEmis("12345678")).toEqual({ emis: "012345678", hadSpaces: false, padded: true });
    expect(normaliseNscEmis("1234567 ")).toEqual({ emis: "001234567", hadSpaces: true, padded: true });
    expect(normaliseNscEmis("12345678.0")).toEqual({ emis: "012345678", hadSpaces: false, padded: true });
    expect(normaliseNscEmis("'012345678")).toEqual({ emis: "012345678", hadSpaces: false, padded: false });
    for (const bad of ["", "   ", "1000004O1", "123456", "1234567890", "12-345678", "-"]) expect(normaliseNscEmis(bad).emis, bad).toBeNull();
  });

  it("reads counts and percentages as the copies write them", () => {
    expect(["274", " 274 ", "1 274", "274.0", "0"].map(parseCount)).toEqual([274, 274, 1274, 274, 0]);
    expect(["", " ", "-"].map(parseCount)).toEqual(["blank", "blank", "blank"]);
    expect(["80.3", "12a", "-4"].map(parseCount)).toEqual(["invalid", "invalid", "invalid"]);
    expect(["86.1", "86,1", "86.1%", " 93 ", ""].map(parsePercentage)).toEqual([86.1, 86.1, 86.1, 93, null]);
    expect(parsePercentage("n/a")).toBe("invalid");
  });

  it("recomputes pass rates rounded half up, as the DBE rounds, and tells rounding from disagreement", () => {
    expect(passRate(15, 16)).toBe(93.8);
    expect(passRate(41, 80)).toBe(51.3);
    expect(passRate(236, 274)).toBe(86.1);
    expect(passRate(0, 7)).toBe(0);
    expect(passRate(45, 45)).toBe(100);
    expect(agreesWithinRounding(51.2, 41, 80)).toBe(true); // 51.25: either way at a tie
    expect(agreesWithinRounding(51.3, 41, 80)).toBe(true);
    expect(agreesWithinRounding(51.1, 41, 80)).toBe(false);
    expect(agreesWithinRounding(85, 80, 100)).toBe(false);
  });
});

describe("importing the fixture report in both layouts, against the fixture masterlist", () => {
  let rows: NscResultRow[];
  let report: NscReport;
  const of = (emis: string) => rows.filter((row) => row.emis_number === emis);

  beforeAll(async () => {
    // The CSV is named first: editions are taken newest first whatever the order given.
    const files = [...(await readNscFile(CSV_FIXTURE)), ...(await readNscFile(JSON_FIXTURE))];
    ({ rows, report } = importNscFiles(files, { index: await fixtureMasterlist(), against: "masterlist" }));
  });

  it("keeps one row per school and year, with the recomputed pass rate", () => {
    expect(rows.map((r) => `${r.emis_number} ${r.year}`)).toEqual([
      "012345678 2022",
      "012345678 2023",
      "012345678 2024",
      "012345678 2025",
      "100000401 2024",
      "100000401 2025",
      "400000302 2022",
      "400000302 2023",
      "400000302 2024",
      "400000302 2025",
      "500000301 2025",
      "600000303 2025",
      "900000304 2025",
      "999999999 2025",
    ]);
    expect(of("400000302")).toContainEqual({
      emis_number: "400000302",
      year: 2023,
      centre_number: "4401002",
      wrote: 80,
      passed: 41,
      pass_rate: 51.3,
      progressed: 0,
    });
    expect(of("400000302")).toContainEqual({
      emis_number: "400000302",
      year: 2022,
      centre_number: "4401002",
      wrote: 70,
      passed: 49,
      pass_rate: 70,
      progressed: 2,
    });
    // the published 85.0 disagrees with 80 of 100: the recomputed rate is kept, the disagreement reported
    expect(of("100000401").find((r) => r.year === 2025)).toMatchObject({ wrote: 100, passed: 80, pass_rate: 80 });
    // a year two editions give differently comes from the newer edition (the 2025 JSON: 189, not 190)
    expect(of("012345678").find((r) => r.year === 2024)).toMatchObject({ wrote: 210, passed: 189, pass_rate: 90 });
    expect(report.schoolsRead).toBe(14);
    expect(report.schoolsKept).toBe(7);
    expect(report.rows).toBe(14);
  });

  it("normalises EMIS numbers with stray spaces and lost leading zeros, and counts both", () => {
    expect(report.emis).toEqual({ straySpaces: 4, leadingZerosRestored: 2 });
    expect(of("012345678")).toHaveLength(4);
  });

  it("drops bad schools and bad years, each counted by reason", () => {
    expect(report.droppedSchools).toEqual({
      "no EMIS number": 1,
      "not an EMIS number (7 to 9 digits)": 1,
      "EMIS number repeated in the same file (first kept)": 1,
    });
    expect(report.droppedYears).toEqual({
      "no learner wrote (wrote 0)": 1,
      "wrote or passed is not a whole number (a shifted or damaged row)": 2,
      "more passed than wrote": 1,
    });
    expect(report.blankYears).toBe(3);
    expect(of("100000402")).toEqual([]); // its row is shifted in every year
  });

  it("reports every published percentage that disagrees beyond rounding, and never takes it", () => {
    expect(report.percentage).toEqual({
      agreeing: 17,
      roundingStep: 1,
      disagreeing: 1,
      unreadable: 0,
      examples: ["100000401 2025: 80 of 100 is 80%, the report says 85.0%"],
    });
    expect(report.editions).toEqual({ sameFigures: 4, newerKept: 1 });
  });

  it("classifies the report's schools against the masterlist: matched, closed, not secondary, unknown", () => {
    expect(report.join?.counts).toEqual({ matched: 4, closed: 1, not_secondary: 1, other: 0, unknown: 1 });
    expect(report.join?.examples.closed).toEqual(["600000303 (status not open (PENDING OPEN))"]);
    expect(report.join?.examples.not_secondary).toEqual(["900000304 (phase not secondary or combined (PRIMARY SCHOOL))"]);
    expect(report.join?.examples.unknown).toEqual(["999999999"]);
    expect(report.join?.highSchoolsWithoutResults).toBe(1);
    expect(report.join?.highSchoolsWithoutResultsByProvince).toEqual({ "western-cape": 1 });
  });

  it("reads the CSV layout saved as a workbook exactly as the CSV", async () => {
    const text = await readFile(CSV_FIXTURE, "utf8");
    const grid = (parse(text, { relax_column_count: true }) as string[][]).map((row) =>
      row.map((cell) => (/^\d+$/.test(cell) ? Number(cell) : cell)),
    );
    const file = path.join(await tempFolder(), "school-performance-2024.xlsx");
    await writeRowsAsWorkbook(file, "NSC 2024", grid);
    const fromCsv = importNscFiles(await readNscFile(CSV_FIXTURE));
    const fromXlsx = importNscFiles(await readNscFile(file));
    expect(fromXlsx.rows).toEqual(fromCsv.rows);
    expect(fromXlsx.rows.map((r) => r.emis_number)).toContain("012345678"); // a number cell lost the zero: restored
  });
});

describe("npm run import -- nsc", () => {
  it("parses its arguments", () => {
    expect(
      parseArguments(["nsc", "a.json", "--schools", "dir1", "--schools", "b.xlsx", "--out", "/tmp/o", "--verified-on", "2026-01-02"], "2026-05-01"),
    ).toEqual({
      dataset: "nsc",
      inputs: ["a.json"],
      schools: ["dir1", "b.xlsx"],
      outDir: path.resolve("/tmp/o"),
      verifiedOn: "2026-01-02",
    });
    expect(() => parseArguments(["schools", "a.csv", "--schools", "x"], "2026-05-01")).toThrow(/--schools goes with the nsc dataset only/);
  });

  it("writes nsc-results.csv in the sources/README.md format, byte-identical on a re-run", async () => {
    const outDir = await tempFolder();
    const options = { dataset: "nsc" as const, inputs: [NSC_FIXTURES], schools: [SCHOOL_FIXTURES], outDir, verifiedOn: "2026-02-01" };
    const first = await runImport(options);
    const text = await readFile(first.outputFile, "utf8");
    await runImport(options);
    expect(await readFile(first.outputFile, "utf8")).toBe(text);
    expect(await readdir(outDir)).toEqual(["nsc-results.csv"]);
    expect(text.split("\n")[0]).toBe(NSC_RESULT_COLUMNS.join(","));
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(14);
    expect(records[0]).toEqual({
      emis_number: "012345678",
      year: "2022",
      centre_number: "7771001",
      wrote: "190",
      passed: "171",
      pass_rate: "90",
      progressed: "1",
      source_url: NSC_SOURCE_URL,
      verified_on: "2026-02-01",
    });
    expect(first.reportText).toMatch(/4 with stray spaces removed, 2 with leading zeros restored/);
    expect(first.reportText).toMatch(/1\s+DISAGREES beyond rounding .*100000401 2025: 80 of 100 is 80%, the report says 85\.0%/);
    expect(first.reportText).toMatch(/4\s+matched to a published high school/);
    expect(first.reportText).toMatch(/1\s+in the masterlist but closed/);
    expect(first.reportText).toMatch(/1\s+in the masterlist but not secondary or combined/);
    expect(first.reportText).toMatch(/1\s+unknown EMIS number/);
    expect(first.reportText).toMatch(/1\s+published high schools with no results in the report \(western-cape 1\)/);
  });

  it("without the masterlist, classifies against the high-schools table in the output folder", async () => {
    const outDir = await tempFolder();
    await writeFile(
      path.join(outDir, "high-schools.csv"),
      "emis_number,name,province_id,district,quintile,sector,phase,latitude,longitude,source_url,verified_on\n" +
        "400000302,FIXTURE PLAINS SECONDARY,free-state,MOTHEO,,public,secondary,,,https://www.education.gov.za/,2026-01-01\n",
    );
    const result = await runImport({ dataset: "nsc", inputs: [JSON_FIXTURE], outDir, verifiedOn: "2026-02-01" });
    const join = (result.report as NscReport).join;
    expect(join?.against).toBe("high-schools table");
    expect(join?.counts).toMatchObject({ matched: 1, unknown: 6 });
  });
});

describe("bad input stops the import with the file and column named, and nothing already written changes", () => {
  async function outWithTable(): Promise<{ outDir: string; before: string }> {
    const outDir = await tempFolder();
    await runImport({ dataset: "nsc", inputs: [JSON_FIXTURE], outDir, verifiedOn: "2026-02-01" });
    return { outDir, before: await readFile(path.join(outDir, "nsc-results.csv"), "utf8") };
  }

  for (const [title, name, content, expected] of [
    ["a JSON file that does not parse", "broken.json", '[{"emis": "200500039", "results": ', /^broken\.json cannot be read as a \.json file/],
    ["JSON that is not a list of schools", "object.json", '{"schools": []}', /^object\.json is not the NSC report's JSON layout/],
    [
      "JSON without an emis field",
      "noemis.json",
      '[{"EMIS_NO": "200500039", "results": {"2025": {"wrote": "1", "achieved": "1"}}}]',
      /^noemis\.json has no column for emis$/,
    ],
    [
      "a CSV without an EMIS column",
      "noemis.csv",
      "centre_number,total_wrote_2024,total_achieved_2024\n1,10,5\n",
      /^noemis\.csv has no column for emis_number$/,
    ],
    [
      "a CSV without year columns",
      "noyears.csv",
      "emis_number,centre_number,wrote,passed\n200500039,1,10,5\n",
      /^noyears\.csv has no column for total_wrote_YYYY and total_achieved_YYYY/,
    ],
    ["an HTML page saved as a workbook", "page.xlsx", "<html><body>Not found</body></html>", /^page\.xlsx cannot be read as a \.xlsx file/],
  ] as const) {
    it(`refuses ${title}`, async () => {
      const { outDir, before } = await outWithTable();
      const file = path.join(await tempFolder(), name);
      await writeFile(file, content);
      const attempt = runImport({ dataset: "nsc", inputs: [file], outDir, verifiedOn: "2026-02-01" });
      await expect(attempt).rejects.toBeInstanceOf(UnreadableFileError);
      await expect(attempt).rejects.toThrow(expected);
      expect(await readFile(path.join(outDir, "nsc-results.csv"), "utf8")).toBe(before);
    });
  }

  it("imports all three tables together or none: a broken NSC report leaves the schools and postal codes as they were", async () => {
    const outDir = await tempFolder();
    const tables = ["high-schools.csv", "postal-codes.csv", "nsc-results.csv"];
    for (const table of tables) await writeFile(path.join(outDir, table), `the ${table} already here\n`);
    const broken = path.join(await tempFolder(), "broken.json");
    await writeFile(broken, '[{"emis": "200500039", "results": ');
    const files = {
      schools: [path.join(SCHOOL_FIXTURES, "national-comma.csv")],
      "postal-codes": [path.join(ROOT, "test", "fixtures", "upstream", "postal-codes", "postalcodes.csv")],
      nsc: [broken],
    };
    await expect(importNational(files, outDir, "2026-02-01")).rejects.toBeInstanceOf(UnreadableFileError);
    for (const table of tables) expect(await readFile(path.join(outDir, table), "utf8"), table).toBe(`the ${table} already here\n`);
    // The same files with a good report: all three are written.
    await importNational({ ...files, nsc: [JSON_FIXTURE] }, outDir, "2026-02-01");
    for (const table of tables) expect(await readFile(path.join(outDir, table), "utf8"), table).toMatch(/^[a-z_]+,/);
  });

  it("refuses a schools file that lacks a required column, naming it, and writes nothing", async () => {
    const outDir = await tempFolder();
    const file = path.join(await tempFolder(), "nophase.csv");
    await writeFile(file, "NatEmis,Official_Institution_Name,Sector,GIS_Long,GIS_Lat\n100000401,FIXTURE,PUBLIC,18.47,-34.05\n");
    const attempt = runImport({
      dataset: "schools",
      inputs: [file, path.join(SCHOOL_FIXTURES, "national-comma.csv")],
      outDir,
      verifiedOn: "2026-02-01",
    });
    await expect(attempt).rejects.toBeInstanceOf(UnusableFilesError);
    await expect(attempt).rejects.toThrow("nophase.csv has no column for phase");
    expect(existsSync(path.join(outDir, "high-schools.csv"))).toBe(false);
  });
});

describe.skipIf(!UPSTREAM)("the real NSC School Performance Report (EDU_UPSTREAM_DIR)", () => {
  if (!UPSTREAM) console.warn("skipped: set EDU_UPSTREAM_DIR to a folder with nsc/ and schools/ to test against the real NSC report");
  let rows: NscResultRow[];
  let report: NscReport;
  let outDir: string;
  let committedVerifiedOn: string;

  beforeAll(async () => {
    const committed = await readFile(path.join(ROOT, "sources", "nsc-results.csv"), "utf8");
    committedVerifiedOn = committed.split("\n")[1]?.split(",").at(-1) ?? "";
    outDir = await tempFolder();
    const result = await runImport({
      dataset: "nsc",
      inputs: [path.join(UPSTREAM ?? "", "nsc")],
      schools: [path.join(UPSTREAM ?? "", "schools")],
      outDir,
      verifiedOn: committedVerifiedOn,
    });
    report = result.report as NscReport;
    rows = parse(await readFile(result.outputFile, "utf8"), { columns: true, cast: false }) as unknown as NscResultRow[];
  }, 120_000);

  it("reads 6,698 schools and matches 6,603 of them to published high schools", () => {
    expect(report.schoolsRead).toBe(6_698);
    expect(report.schoolsKept).toBe(6_697);
    expect(report.join?.counts).toEqual({ matched: 6_603, closed: 0, not_secondary: 85, other: 0, unknown: 9 });
    expect(report.join?.highSchoolsWithoutResults).toBe(8_913 - 6_603);
    // one school's row is shifted in the transcription (its 2024 and 2025 "achieved" hold percentages)
    expect(report.droppedYears).toEqual({ "wrote or passed is not a whole number (a shifted or damaged row)": 2, "no learner wrote (wrote 0)": 1 });
    expect(report.percentage).toMatchObject({ disagreeing: 0, roundingStep: 1, agreeing: 20_090 });
  });

  it("agrees with the report's own figures for every school and year it keeps", async () => {
    const raw = JSON.parse(await readFile(path.join(UPSTREAM ?? "", "nsc", "school-performance-2023-2025.json"), "utf8")) as {
      emis: string;
      results: Record<string, { wrote: string; achieved: string; percentage: string; progressed: string }>;
    }[];
    const published = new Map(
      raw.flatMap((school) => Object.entries(school.results).map(([year, r]) => [`${school.emis.trim()}|${year}`, r] as const)),
    );
    expect(rows).toHaveLength(20_091);
    for (const row of rows as unknown as Record<string, string>[]) {
      const source = published.get(`${row.emis_number}|${row.year}`);
      expect(source, `${row.emis_number} ${row.year}`).toBeDefined();
      expect(Number(row.wrote)).toBe(Number(source?.wrote));
      expect(Number(row.passed)).toBe(Number(source?.achieved));
      expect(Number(row.progressed)).toBe(Number(source?.progressed));
      // the published percentage is the exact rate rounded (one tie is rounded down in the report)
      expect(agreesWithinRounding(Number(source?.percentage), Number(row.passed), Number(row.wrote)), `${row.emis_number} ${row.year}`).toBe(true);
    }
  });

  it("gives exactly the committed sources/nsc-results.csv", async () => {
    expect(await readFile(path.join(outDir, "nsc-results.csv"), "utf8")).toBe(await readFile(path.join(ROOT, "sources", "nsc-results.csv"), "utf8"));
  });
});
