// Issue 26 item 4, "every citation locates its fact": a repository citation in the programme catalogue names a
// fixed commit, and (evidence and qualification rows) the line or page where the row's programme is stated.
// research/anchor-citations.ts writes the anchors; this test holds the tables to the rule.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";

const SOURCES = path.resolve(import.meta.dirname, "../../sources");

type Row = Record<string, string>;

function rows(folder: string): { where: string; row: Row }[] {
  return readdirSync(path.join(SOURCES, folder))
    .filter((name) => name.endsWith(".csv"))
    .sort()
    .flatMap((name) =>
      (parse(readFileSync(path.join(SOURCES, folder, name), "utf8"), { columns: true, skip_empty_lines: true }) as Row[]).map((row, index) => ({
        where: `sources/${folder}/${name}:${index + 2}`,
        row,
      })),
    );
}

const FIXED = /^https:\/\/github\.com\/[^/]+\/[^/]+\/(blob|tree)\/[0-9a-f]{40}\/[^#]+/;
const ANCHORED = /#(L\d+(-L\d+)?|page=\d+)$/;

/** Files no copy of which could be read here (the repository cannot be fetched, and the stored index holds no
 * complete copy at the cited commit within reach), so their rows are not anchored yet: see research/citation-pending.md.
 * Remove an entry once research/anchor-citations.ts has anchored its rows. */
const PENDING = readFileSync(path.resolve(import.meta.dirname, "../../research/citation-pending.md"), "utf8")
  .split("\n")
  .map((line) => /^- `(https:\/\/github\.com\/[^`]+)`/.exec(line)?.[1])
  .filter((url): url is string => url !== undefined);

const pending = (url: string): boolean => PENDING.some((prefix) => url.startsWith(prefix));

describe("repository citations", () => {
  for (const folder of ["evidence", "qualifications"]) {
    it(`${folder}: every github.com source_url names a fixed commit and an anchor`, () => {
      const wrong = rows(folder)
        .filter(({ row }) => (row.source_url ?? "").startsWith("https://github.com/"))
        .filter(({ row }) => !pending(row.source_url ?? ""))
        .filter(({ row }) => !(FIXED.test(row.source_url ?? "") && ANCHORED.test(row.source_url ?? "")))
        .map(({ where, row }) => `${where}: ${row.source_url}`);
      expect(wrong).toEqual([]);
    });
  }

  it("witnesses: every github.com source_url names a fixed commit (a whole document: no anchor needed)", () => {
    const wrong = rows("witnesses")
      .filter(({ row }) => (row.source_url ?? "").startsWith("https://github.com/"))
      .filter(({ row }) => !pending(row.source_url ?? ""))
      .filter(({ row }) => !FIXED.test(row.source_url ?? "") || /\/(blob|tree)\/HEAD\//.test(row.source_url ?? ""))
      .map(({ where, row }) => `${where}: ${row.source_url}`);
    expect(wrong).toEqual([]);
  });

  it("the pending list names only files some row still cites without an anchor", () => {
    const cited = [...rows("evidence"), ...rows("qualifications"), ...rows("witnesses")].map(({ row }) => row.source_url ?? "");
    for (const prefix of PENDING) {
      expect(
        cited.some((url) => url.startsWith(prefix) && !ANCHORED.test(url)),
        `${prefix} is anchored everywhere: drop it from research/citation-pending.md`,
      ).toBe(true);
    }
  });
});
