// build/csv.ts answers exactly what csv-parse does with the build's options, or gives up.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import glob from "fast-glob";
import { describe, expect, it } from "vitest";
import { parsePlainCsv } from "../../build/csv.ts";
import { ROOT } from "../../support/test-dataset.ts";

const OPTIONS = { bom: true, info: true, skip_empty_lines: true, relax_column_count: true } as const;

function csvParse(text: string): { record: string[]; lines: number }[] | "error" {
  try {
    return (parse(text, OPTIONS) as unknown as { record: string[]; info: { lines: number } }[]).map(({ record, info }) => ({
      record,
      lines: info.lines,
    }));
  } catch {
    return "error";
  }
}

const ours = (text: string) => parsePlainCsv(text)?.map(({ record, info }) => ({ record, lines: info.lines })) ?? null;

describe("parsePlainCsv", () => {
  it("gives csv-parse's records and lines, or null, for any text of CSV's characters", () => {
    const piece = fc.constantFrom("a", "b", "é", " ", ",", '"', '""', "\n", "\r", "\r\n", "\uFEFF", "x,y", '"q"', '"a,b"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        const fast = ours(text);
        if (fast !== null) expect(fast).toEqual(csvParse(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads well-formed tables as csv-parse does (quoted cells, doubled quotes, empty lines, no final line end)", () => {
    for (const text of ['\uFEFFa,b\n1,"x, ""y"""\n\n2,\n', 'a,b\n"",""\n3', "a\n\n\nb\n", ",\n,,\n", ""]) {
      expect(ours(text), JSON.stringify(text)).toEqual(csvParse(text));
    }
  });

  it("reads every committed table itself, exactly as csv-parse does", async () => {
    const files = await glob("sources/**/*.csv", { cwd: ROOT });
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = await readFile(path.join(ROOT, file), "utf8");
      expect(ours(text), file).toEqual(csvParse(text));
    }
  });
});
