// The NSC results table (sources/nsc-results.csv, written by `npm run import -- nsc`): per school (EMIS
// number) and year, the learners who wrote the National Senior Certificate, who passed, the pass rate and
// the progressed learners, from the DBE's NSC School Performance Report. Joined onto the high schools by
// EMIS number in link.ts; rows of schools that are not high schools are kept (facts of the report) and
// only counted in a build warning.
import { z } from "zod";
import { defineTable } from "./define.ts";
import * as cell from "./cells.ts";

/** 100 × passed / wrote rounded half up to one decimal: the importer's rule, checked again here. */
const passRate = (passed: number, wrote: number) => Math.round((passed * 1000) / wrote) / 10;

export function nscResultsTable(provenance: ReturnType<typeof cell.provenance>) {
  return defineTable({
    name: "nsc-results",
    patterns: ["nsc-results.csv"],
    imported: true,
    whenEmpty:
      "import the DBE NSC School Performance Report: `npm run import -- nsc <file> --schools <masterlist files>` (https://www.education.gov.za/Resources/Reports.aspx)",
    row: z
      .object({
        emis_number: cell.digits(9),
        year: cell.integer(2008, 2100),
        centre_number: cell.optionalText(),
        wrote: cell.integer(1, 100_000),
        passed: cell.integer(0, 100_000),
        pass_rate: cell.decimal(0, 100),
        progressed: cell.optionalInteger(0, 100_000),
        ...provenance,
      })
      .refine((r) => r.passed <= r.wrote, { path: ["passed"], error: "at most the number who wrote" })
      .refine((r) => r.passed > r.wrote || r.pass_rate === passRate(r.passed, r.wrote), {
        path: ["pass_rate"],
        error: "100 × passed / wrote, rounded half up to one decimal",
      })
      .refine((r) => r.centre_number === null || /^\d{4,10}$/.test(r.centre_number), {
        path: ["centre_number"],
        error: "the examination centre number (4 to 10 digits), or an empty cell",
      }),
    key: ["emis_number", "year"],
  });
}
