// The data dictionary (schema/dictionary.ts): every column of every bulk file has a meaning and an origin, every
// nullable one the reason it can be null, and docs/data-dictionary.md is what the schemas give now.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../lib/root.ts";
import { BULK_FILES, columnsOf, csvHeader, csvLine } from "../../schema/bulk.ts";
import { DICTIONARY_PAGE, dataDictionary, dictionaryMarkdown } from "../../schema/dictionary.ts";

describe("the data dictionary", () => {
  const dictionary = dataDictionary();

  it("documents every column of every bulk file: meaning, origin, and why a nullable one can be null", () => {
    expect(dictionary.files.map((f) => f.name)).toEqual(BULK_FILES.map((f) => f.name));
    const gaps = dictionary.files.flatMap((file) =>
      file.columns.flatMap((c) => [
        ...(c.meaning === "" ? [`${file.name}.${c.name}: no meaning`] : []),
        ...(c.origin === "" ? [`${file.name}.${c.name}: no origin`] : []),
        ...(c.nullable && !c.null_when ? [`${file.name}.${c.name}: nullable, but no reason`] : []),
      ]),
    );
    expect(gaps).toEqual([]);
  });

  it("fails for a nullable field added without its reason", () => {
    const file = {
      name: "provinces",
      scope: null,
      resource: "provinces" as const,
      description: "x",
      record: z.object({ id: z.string(), motto: z.string().nullable() }),
    };
    const [entry] = dataDictionary([file]).files;
    expect(entry?.columns.find((c) => c.name === "motto")).toMatchObject({ nullable: true, null_when: "" });
  });

  it("is written to docs/data-dictionary.md as the schemas give it (npm run docs:figures)", async () => {
    expect(await readFile(path.join(ROOT, DICTIONARY_PAGE), "utf8")).toBe(dictionaryMarkdown(dictionary));
  });
});

describe("the CSV rule", () => {
  const schema = z.object({
    id: z.string(),
    note: z.string().nullable(),
    place: z.object({ lat: z.number(), lon: z.number() }).nullable(),
    tags: z.array(z.string()),
    ok: z.boolean(),
    near: z.number().optional(),
  });

  it("flattens nested objects to parent.child, keeps lists as JSON, leaves optional fields out", () => {
    const columns = columnsOf(schema);
    expect(columns.map((c) => c.name)).toEqual(["id", "note", "place.lat", "place.lon", "tags", "ok"]);
    expect(csvHeader(columns)).toBe("id,note,place.lat,place.lon,tags,ok\r\n");
    expect(csvLine(columns, { id: 'a "b", c', note: null, place: { lat: -33.9, lon: 18.4 }, tags: ["x", "y"], ok: true })).toBe(
      '"a ""b"", c",,-33.9,18.4,"[""x"",""y""]",true\r\n',
    );
    // A null object empties its columns; an empty text is "" so that it differs from a null.
    expect(csvLine(columns, { id: "", note: "", place: null, tags: [], ok: false })).toBe('"","",,,[],false\r\n');
  });
});
