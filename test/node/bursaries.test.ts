// The bursary tables in the build (build/tables/bursaries.ts, build/bursaries.ts): hand-written rows, good and
// bad. Every bad input is reported with its file, line, column and value; a good set becomes the model the
// API records are made from (cycles newest first, confidence, the expected next cycle, the vocabulary's counts).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assembleModel, defaultBuildOptions } from "../../build/index.ts";
import { formatProblem } from "../../build/problems.ts";
import { FIELDS_OF_STUDY } from "../../lib/vocabulary.ts";
import { ROOT, smallSources } from "../../support/test-dataset.ts";
import { removeAll } from "../../lib/files.ts";

const cleanup: string[] = [];
afterAll(() => removeAll(...cleanup));

const TODAY = "2026-11-27";
const BURSARY_HEADER =
  "slug,name,provider,provider_type,fields,covers,value_zar,study_levels,min_average,household_income_max_zar,citizenship,provinces,eligibility,application_url,recurs,recurs_basis,source_url,verified_on";
const CYCLE_HEADER = "bursary_slug,intake_year,open_date,close_date,evidence_kind,dates_from,corroborated_by,source_url,verified_on";
const SOURCE = "https://www.example.org.za/bursary";

type BursaryCells = Partial<
  Record<"fields" | "covers" | "value_zar" | "study_levels" | "min_average" | "income" | "citizenship" | "provinces" | "recurs" | "basis", string>
>;
function bursary(slug: string, cells: BursaryCells = {}): string {
  return [
    slug,
    `Bursary ${slug}`,
    "Example Provider",
    "corporate",
    cells.fields ?? "engineering",
    cells.covers ?? "tuition;books",
    cells.value_zar ?? "",
    cells.study_levels ?? "undergraduate",
    cells.min_average ?? "",
    cells.income ?? "",
    cells.citizenship ?? "",
    cells.provinces ?? "",
    `"For example students, in our own words."`,
    "https://www.example.org.za/apply",
    cells.recurs ?? "",
    cells.basis ?? "",
    SOURCE,
    "2026-11-20",
  ].join(",");
}
const cycleRow = (slug: string, intake: number, open: string, close: string, kind = "own-page", corroborated = "", datesFrom = "call") =>
  [slug, intake, open, close, kind, datesFrom, corroborated, `${SOURCE}/${slug}/${intake}`, "2026-11-20"].join(",");

/** A copy of sources/ with the bursary tables replaced (fields-of-study.csv kept unless given), and one university's
 * programmes (support/test-dataset.ts smallSources: bursaries do not refer to them). */
async function sourcesWith(tables: { bursaries: string[]; cycles: string[]; fields?: (lines: string[]) => string[] }): Promise<string> {
  const dir = await smallSources();
  cleanup.push(dir);
  await writeFile(path.join(dir, "bursaries.csv"), `${[BURSARY_HEADER, ...tables.bursaries].join("\n")}\n`);
  await writeFile(path.join(dir, "bursary-cycles.csv"), `${[CYCLE_HEADER, ...tables.cycles].join("\n")}\n`);
  if (tables.fields) {
    const file = path.join(dir, "fields-of-study.csv");
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    await writeFile(file, `${tables.fields(lines).join("\n")}\n`);
  }
  return dir;
}

async function assemble(sourcesDir: string) {
  return assembleModel({ ...defaultBuildOptions(ROOT, { sourcesDir, today: TODAY }), importedDir: path.join(sourcesDir, "no-imports") });
}

/** The one bursary that uses every field of study, so the vocabulary check is satisfied unless a test says otherwise. */
const EVERY_FIELD = FIELDS_OF_STUDY.join(";");

describe("bad bursary rows: file, line, column, value and what was expected", () => {
  it("reports every bad input of the three tables at once", async () => {
    const sources = await sourcesWith({
      bursaries: [
        bursary("every-field", { fields: EVERY_FIELD, recurs: "annual", basis: "past-cycles" }), // line 2: good
        bursary("unknown-field", { fields: "engineering;astrology" }), // 3
        bursary("unknown-cover", { covers: "tuition;food" }), // 4
        bursary("annual-without-basis", { recurs: "annual" }), // 5
        bursary("basis-without-annual", { basis: "provider-statement" }), // 6
        bursary("past-cycles-without-pair", { recurs: "annual", basis: "past-cycles" }), // 7
        bursary("no-cycle"), // 8
        bursary("unknown-province", { provinces: "gauteng;atlantis" }), // 9
        bursary("unknown-level", { study_levels: "matric" }), // 10
        bursary("repeated-field", { fields: "law;law" }), // 11
        bursary("pair-with-a-standing-window", { recurs: "annual", basis: "past-cycles" }), // 12
      ],
      cycles: [
        cycleRow("every-field", 2027, "2026-06-01", "2026-09-30"), // 2
        cycleRow("every-field", 2026, "", "2025-09-30", "third-party", "https://other.example.com/x"), // 3
        cycleRow("every-field", 2025, "2024-10-01", "2024-09-30"), // 4: opens after it closes
        cycleRow("every-field", 2027, "", "2026-08-31"), // 5: a second 2027 cycle
        cycleRow("ghost-bursary", 2027, "", "2026-08-31"), // 6: no such bursary
        cycleRow("unknown-field", 2027, "", "2026-08-31", "blog"), // 7: not a witness kind
        cycleRow("unknown-cover", 2027, "", "2020-08-31"), // 8: closes years before its intake
        cycleRow("annual-without-basis", 2027, "", "2026-08-31"),
        cycleRow("basis-without-annual", 2027, "", "2026-08-31"),
        cycleRow("past-cycles-without-pair", 2027, "", "2026-09-30"), // 11
        cycleRow("past-cycles-without-pair", 2026, "", "2025-10-31"), // 12
        cycleRow("unknown-province", 2027, "2026-13-01", "2026-08-31"), // 13: not a date
        cycleRow("unknown-level", 2027, "", "2026-08-31"),
        cycleRow("repeated-field", 2027, "", "2026-08-31"),
        cycleRow("repeated-field", 2026, "", "2025-08-31", "own-page", "", "guess"), // 16: not a dates_from
        // The same dates twice, but one is a standing window: not two past cycles.
        cycleRow("pair-with-a-standing-window", 2027, "", "2026-09-30", "own-page", "", "standing-rule"), // 17
        cycleRow("pair-with-a-standing-window", 2026, "", "2025-09-30"), // 18
      ],
      fields: (lines) => [...lines, `astrology,Astrology,13,"Stars.",https://www.che.ac.za/,2026-11-20`],
    });
    const result = await assemble(sources);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.problems.map((p) => `${path.basename(p.file)}:${p.line}:${p.column}:${p.value}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "bursaries.csv:3:fields:engineering;astrology",
        "bursaries.csv:4:covers:tuition;food",
        "bursaries.csv:5:recurs_basis:",
        "bursaries.csv:6:recurs:",
        "bursaries.csv:7:recurs_basis:past-cycles",
        "bursaries.csv:8:slug:no-cycle",
        "bursaries.csv:9:provinces:gauteng;atlantis",
        "bursaries.csv:10:study_levels:matric",
        "bursaries.csv:11:fields:law;law",
        "bursaries.csv:12:recurs_basis:past-cycles",
        "bursary-cycles.csv:4:close_date:2024-09-30",
        "bursary-cycles.csv:5:bursary_slug, intake_year:every-field | 2027",
        "bursary-cycles.csv:6:bursary_slug:ghost-bursary",
        "bursary-cycles.csv:7:evidence_kind:blog",
        "bursary-cycles.csv:8:close_date:2020-08-31",
        "bursary-cycles.csv:13:open_date:2026-13-01",
        "bursary-cycles.csv:16:dates_from:guess",
        "fields-of-study.csv:23:slug:astrology",
      ]),
    );
    const message = (file: string, line: number, column: string) => {
      const problem = result.problems.find((p) => p.file.endsWith(file) && p.line === line && p.column === column);
      return problem ? formatProblem(problem) : `no problem at ${file}:${line} ${column}`;
    };
    expect(message("bursaries.csv", 3, "fields")).toMatch(
      /bursaries\.csv:3 column "fields": value "engineering;astrology": expected at least one item, each a field of study slug from fields-of-study\.csv; separate items with ; \(not "astrology"\)/,
    );
    expect(message("bursaries.csv", 4, "covers")).toMatch(
      /expected each one of: tuition, registration, .*other; separate items with ; \(or an empty cell\) \(not "food"\)/,
    );
    expect(message("bursaries.csv", 5, "recurs_basis")).toMatch(
      /expected the basis of the recurrence, one of: provider-statement, past-cycles \(recurs is annual\)/,
    );
    expect(message("bursaries.csv", 7, "recurs_basis")).toMatch(
      /two dated calls in bursary-cycles\.csv on the same dates .* its dated calls are 2027: \? to 2026-09-30, 2026: \? to 2025-10-31/,
    );
    expect(message("bursary-cycles.csv", 4, "close_date")).toMatch(/value "2024-09-30": expected a close_date on or after open_date/);
    expect(message("bursary-cycles.csv", 5, "bursary_slug, intake_year")).toMatch(
      /expected a unique bursary_slug \+ intake_year in bursary-cycles \(already used at .*bursary-cycles\.csv:2\)/,
    );
    expect(message("bursary-cycles.csv", 6, "bursary_slug")).toMatch(/expected a slug that exists in bursaries/);
    expect(message("fields-of-study.csv", 23, "slug")).toMatch(/expected one of: all-fields, accounting-and-finance,/);
    // The good bursary's rows are not reported.
    expect(
      found.filter((f) => f.startsWith("bursaries.csv:2:") || f.startsWith("bursary-cycles.csv:2:") || f.startsWith("bursary-cycles.csv:3:")),
    ).toEqual([]);
  });

  it("refuses a field of study no bursary uses, and a vocabulary field without its row", async () => {
    const sources = await sourcesWith({
      bursaries: [bursary("most-fields", { fields: FIELDS_OF_STUDY.filter((f) => f !== "law").join(";") })],
      cycles: [cycleRow("most-fields", 2027, "", "2026-08-31")],
      fields: (lines) => lines.filter((line) => !line.startsWith("social-work,")),
    });
    const result = await assemble(sources);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const lawLine = (await readFile(path.join(sources, "fields-of-study.csv"), "utf8")).split("\n").findIndex((l) => l.startsWith("law,")) + 1;
    expect(result.problems.map((p) => `${path.basename(p.file)}:${p.line}:${p.column}:${p.value}`)).toEqual([
      "fields-of-study.csv:1:slug:social-work",
      `fields-of-study.csv:${lawLine}:slug:law`,
    ]);
    expect(result.problems[1]?.expected).toMatch(/a field of study that at least one bursary lists in its fields \(none does/);
  });
});

describe("a good set of bursaries", () => {
  it("becomes the model: cycles newest first, confidence from the latest cycle, the expected next cycle of annual schemes, field counts", async () => {
    const sources = await sourcesWith({
      bursaries: [
        bursary("annual-by-past-cycles", {
          fields: EVERY_FIELD,
          recurs: "annual",
          basis: "past-cycles",
          citizenship: "south-african",
          provinces: "gauteng;limpopo",
          min_average: "65",
          income: "350000",
          value_zar: "80000",
        }),
        bursary("annual-by-statement", { fields: "all-fields", recurs: "annual", basis: "provider-statement" }),
        bursary("once", { fields: "engineering" }),
        bursary("corroborated", { fields: "law" }),
      ],
      cycles: [
        cycleRow("annual-by-past-cycles", 2024, "2023-06-01", "2023-12-15", "third-party"),
        cycleRow("annual-by-past-cycles", 2026, "", "2025-12-15", "transcription"),
        cycleRow("annual-by-statement", 2027, "2026-02-01", "2026-02-28", "own-page"),
        cycleRow("once", 2027, "", "2026-12-15", "third-party"),
        cycleRow("corroborated", 2027, "", "2026-12-15", "third-party", "https://second.example.com/law"),
      ],
    });
    const result = await assemble(sources);
    expect(result.ok, result.ok ? "" : result.problems.map(formatProblem).join("\n")).toBe(true);
    if (!result.ok) return;
    const bySlug = new Map(result.model.bursaries.map((b) => [b.slug, b]));
    const annual = bySlug.get("annual-by-past-cycles");
    expect(annual?.cycles.map((c) => c.intake_year)).toEqual([2026, 2024]);
    expect(annual?.confidence).toBe("medium");
    expect(annual?.expected_next_cycle).toEqual({
      intake_year: 2027,
      open_date: null,
      close_date: "2026-12-15",
      expected: true,
      basis: "past-cycles",
    });
    expect(annual).toMatchObject({
      citizenship: "south-african",
      provinces: ["gauteng", "limpopo"],
      min_average: 65,
      household_income_max_zar: 350000,
      value_zar: 80000,
    });
    // Closed 2026-02-28, more than half a year ago: the next expected cycle is 2028's.
    expect(bySlug.get("annual-by-statement")?.expected_next_cycle).toEqual({
      intake_year: 2028,
      open_date: "2027-02-01",
      close_date: "2027-02-28",
      expected: true,
      basis: "provider-statement",
    });
    expect(bySlug.get("annual-by-statement")?.confidence).toBe("high");
    expect(bySlug.get("once")).toMatchObject({ confidence: "low", expected_next_cycle: null });
    expect(bySlug.get("corroborated")?.confidence).toBe("medium");
    const counts = Object.fromEntries(result.model.fieldsOfStudy.map((f) => [f.slug, f.bursary_count]));
    expect(counts).toMatchObject({ "all-fields": 2, engineering: 3, law: 3, education: 2 });
    // The stale warning counts bursaries whose latest cycle closed more than a year before the build date.
    expect(result.warnings.map((w) => w.message).join("\n")).not.toMatch(/closed more than a year ago/);
  });

  it("warns, with a count, when the latest published cycle closed more than a year before the build date", async () => {
    const sources = await sourcesWith({
      bursaries: [bursary("stale", { fields: EVERY_FIELD }), bursary("current")],
      cycles: [cycleRow("stale", 2024, "", "2023-08-31"), cycleRow("current", 2027, "", "2026-08-31")],
    });
    const result = await assemble(sources);
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      "1 of 2 bursaries' latest published cycle closed more than a year ago (by year of closing: 2023: 1; oldest stale 2023-08-31); find their newer cycles and add them to bursary-cycles.csv",
    );
  });
});
