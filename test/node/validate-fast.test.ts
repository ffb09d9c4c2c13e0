// The validate stage runs rows through the cells' converters without zod where it can (build/validate.ts):
// the rows and problems must be exactly zod's.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadTables, type RawTable } from "../../build/load.ts";
import { sourceTables } from "../../build/tables/index.ts";
import type { TableDefinition } from "../../build/tables/define.ts";
import { validateTables } from "../../build/validate.ts";
import { ROOT } from "../../support/test-dataset.ts";

const TODAY = "2026-11-27";

describe("validate without zod", () => {
  it("gives zod's rows for every committed table", async () => {
    const tables = sourceTables(TODAY);
    const loaded = await loadTables(Object.values(tables) as TableDefinition[], { sources: path.join(ROOT, "sources"), root: ROOT });
    const fast = validateTables(tables, loaded.tables);
    const zod = validateTables(tables, loaded.tables, false);
    expect(fast.problems).toEqual(zod.problems);
    for (const key of Object.keys(tables) as (keyof typeof tables)[]) expect(fast.valid[key], String(key)).toEqual(zod.valid[key]);
  }, 120_000);

  it("gives zod's problems, and keeps the good rows, when cells do not convert", () => {
    const tables = sourceTables(TODAY);
    const definition = tables.highSchools as TableDefinition;
    const good = {
      emis_number: "700000001",
      name: " A School ",
      province_id: "gauteng",
      district: "",
      quintile: "5",
      sector: "public",
      phase: "secondary",
      latitude: "-25.7",
      longitude: "28.2",
      source_url: "https://www.education.gov.za/",
      verified_on: "2026-11-01",
    };
    const rows = [good, { ...good, quintile: "9", verified_on: "2099-01-01" }, { ...good, latitude: "north" }].map((cells, i) => ({
      file: "x.csv",
      line: i + 2,
      cells,
    }));
    const raw = new Map<string, RawTable>([[definition.name, { definition, files: ["x.csv"], rows, unreadable: false }]]);
    const only = { highSchools: tables.highSchools };
    const fast = validateTables(only, raw);
    const zod = validateTables(only, raw, false);
    expect(fast).toEqual(zod);
    expect(fast.valid.highSchools).toHaveLength(1);
    expect(fast.problems.length).toBeGreaterThanOrEqual(3);
  });
});
