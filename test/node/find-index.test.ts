// The find indexes (build/find-index.ts, lib/find-index.ts) and their evaluation (lib/find.ts): built from
// the test data set, they hold exactly the list items of the list chunks, they only add files, and the
// query rules select and order rows as documented.
import { readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { layoutFiles } from "../../build/emit.ts";
import { bursaryCycles, bursaryFieldSlugs, findIndexFiles } from "../../build/find-index.ts";
import { assembleModel, defaultBuildOptions } from "../../build/index.ts";
import type { Model } from "../../build/link.ts";
import { resourceRecords, type ResourceRecords } from "../../build/records.ts";
import { findRows, type Criterion } from "../../lib/find.ts";
import { parseListQuery } from "../../functions/query.ts";
import { columnValue, encodeColumn, encodeLists, itemAt, type FindIndexPart } from "../../lib/find-index.ts";
import { paths, type Manifest } from "../../lib/layout.ts";
import { chunkItems } from "../../lib/sliced.ts";
import { searchKey, searchWords } from "../../lib/text.ts";
import { columnsRead, LIST_QUERY_PARAMETERS, listParameters, type ListResource, type QueryParameter } from "../../schema/query.ts";
import { resourceNamed, type ResourceName } from "../../schema/resources.ts";
import { FIELDS_OF_STUDY } from "../../lib/vocabulary.ts";
import { ROOT, TEST_DIST } from "../../support/test-dataset.ts";

const readJson = async (p: string) => JSON.parse(await readFile(path.join(TEST_DIST, p), "utf8"));

let model: Model;
let records: ResourceRecords[];

beforeAll(async () => {
  const options = defaultBuildOptions(ROOT);
  const assembly = await assembleModel(options);
  if (!assembly.ok) throw new Error("the test data set does not assemble");
  model = assembly.model;
  records = resourceRecords(model, assembly.schemes);
});

/** The find indexes of the whole model, made once for the tests that read them (one test makes them again, to
 * show they come out the same). */
let whole: ReturnType<typeof findIndexFiles> | undefined;
const wholeIndex = () => {
  whole ??= findIndexFiles(records, model);
  return whole;
};

describe("the built find indexes (.test-dist)", () => {
  it("exist for every paginated list, with their sizes in the manifest", async () => {
    const manifest = (await readJson("/manifest.json")) as Manifest;
    expect(Object.keys(manifest.find ?? {}).sort()).toEqual([
      "bursaries",
      "high-schools",
      "postal-codes",
      "prospectuses",
      "qualifications",
      "universities",
    ]);
    for (const [resource, entry] of Object.entries(manifest.find ?? {})) {
      expect(entry.rows, resource).toBe(manifest.resources[resource]?.total);
      let bytes = 0;
      for (const part of entry.parts) {
        const content = await readFile(path.join(TEST_DIST, part.path));
        expect(part.bytes, part.path).toBe(content.byteLength);
        expect(part.bytes, `${part.path} is well under Cloudflare's 25 MiB per file`).toBeLessThan(8 * 1024 * 1024);
        bytes += part.bytes;
      }
      expect(entry.bytes).toBe(bytes);
    }
  });

  it("hold every list item exactly as the list chunks do, in the same order", async () => {
    const manifest = (await readJson("/manifest.json")) as Manifest;
    for (const [resource, entry] of Object.entries(manifest.find ?? {})) {
      const chunks: unknown[] = [];
      for (let k = 0; k < (manifest.resources[resource]?.list?.chunks ?? 0); k++)
        chunks.push(...chunkItems(await readFile(path.join(TEST_DIST, paths.listChunk(resource, k)), "utf8")));
      const fromIndex: unknown[] = [];
      for (const { path: p } of entry.parts) {
        const part = (await readJson(p)) as FindIndexPart;
        for (let row = 0; row < part.rows; row++) fromIndex.push(itemAt(part, row));
      }
      // Compared as JSON text, so the field order must be the same too.
      expect(JSON.stringify(fromIndex), resource).toBe(JSON.stringify(chunks));
    }
  });

  it("have every column the parameter table reads", async () => {
    const manifest = (await readJson("/manifest.json")) as Manifest;
    for (const [resource, entry] of Object.entries(manifest.find ?? {})) {
      const part = (await readJson(entry.parts[0]?.path ?? "")) as FindIndexPart;
      for (const column of columnsRead(LIST_QUERY_PARAMETERS[resource as ListResource]))
        expect({ ...part.items, ...part.columns }, `${resource}.${column}`).toHaveProperty(column);
    }
  });
});

describe("the build only adds files", () => {
  it("leaves every other file byte-identical, and is deterministic", () => {
    const options = { bucketThreshold: 2_000, recordsPerBucket: 64 };
    const before = layoutFiles(records, [], options);
    const find = wholeIndex();
    expect(find.problems).toEqual([]);
    const after = layoutFiles(records, find.files, options, { find: find.manifest });
    const content = (files: { path: string; content: string }[]) => new Map(files.map((f) => [f.path, f.content]));
    const [old, now] = [content(before.files), content(after.files)];
    for (const [p, text] of old) if (p !== "/manifest.json") expect(now.get(p), p).toBe(text);
    const added = [...now.keys()].filter((p) => !old.has(p));
    expect(added.every((p) => p.startsWith("/_internal/find/"))).toBe(true);
    expect(added.length).toBe(6);
    expect(JSON.stringify(findIndexFiles(records, model))).toBe(JSON.stringify(find));
  });

  it("splits a list into parts that answer exactly like one index", () => {
    const whole = wholeIndex();
    const split = findIndexFiles(records, model, 200);
    const parts = (find: typeof whole, resource: string) =>
      find.files.filter((f) => f.path.startsWith(`/_internal/find/${resource}/`)).map((f) => JSON.parse(f.content) as FindIndexPart);
    expect(split.manifest.qualifications?.parts.length).toBe(Math.ceil(model.qualifications.length / 200));
    const criteria: Criterion[][] = [
      [{ name: "q", match: { kind: "search", columns: ["search"] }, value: ["bachelor", "sc"] }],
      [{ name: "subject", match: { kind: "includes", column: "subjects" }, value: "mathematics" }],
      [{ name: "nqf_level", match: { kind: "equals", column: "nqf_level" }, value: 7 }],
    ];
    for (const c of criteria) {
      const a = findRows(parts(whole, "qualifications"), c, 10).map((h) => h.position);
      const b = findRows(parts(split, "qualifications"), c, 10).map((h) => h.position);
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(0);
    }
  });
});

describe("the word index", () => {
  it("finds exactly the rows a scan of every row finds, for any query made of word starts", () => {
    const find = wholeIndex();
    const parts = find.files.map((f) => JSON.parse(f.content) as FindIndexPart).filter((p) => p.words);
    expect(parts.map((p) => p.resource).sort()).toEqual(["bursaries", "high-schools", "postal-codes", "qualifications", "universities"]);
    for (const part of parts) {
      const columns = part.words?.columns ?? [];
      const vocabulary = part.words?.vocab ?? [];
      const scanned = { ...part, words: undefined };
      const word = fc.oneof(
        fc.constantFrom(...vocabulary).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n))),
        fc.string({ minLength: 1, maxLength: 3 }).map((w) => searchWords(w)[0] ?? "a"),
      );
      fc.assert(
        fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), (words) => {
          const criteria: Criterion[] = [{ name: "q", match: { kind: "search", columns }, value: words }];
          expect(findRows([part], criteria, 10)).toEqual(findRows([scanned], criteria, 10));
        }),
        { numRuns: runs(300) },
      );
    }
  });
});

describe("column encoding", () => {
  it("gives back every value, dictionary-encoded or not", () => {
    const scalar = fc.oneof(fc.constantFrom("a", "b", "gauteng", null, 1, 2, true), fc.string({ maxLength: 3 }), fc.integer());
    fc.assert(
      fc.property(fc.array(scalar, { maxLength: 80 }), (values) => {
        const column = encodeColumn(values);
        expect(values.map((_, i) => columnValue(column, i))).toEqual(values);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom("mathematics", "physical-sciences", "english"), { maxLength: 3 }), { maxLength: 30 }),
        (lists) => {
          const column = encodeLists(lists);
          expect(lists.map((_, i) => columnValue(column, i))).toEqual(lists);
        },
      ),
    );
  });

  it("uses a dictionary only when values repeat", () => {
    expect(encodeColumn(["gauteng", "gauteng", "limpopo", "gauteng", "gauteng", "gauteng", "limpopo", "gauteng"])).toEqual({
      dict: ["gauteng", "limpopo"],
      codes: [0, 0, 1, 0, 0, 0, 1, 0],
    });
    expect(Array.isArray(encodeColumn(["a", "b", "c", "d", "e", "f", "g", "h"]))).toBe(true);
    expect(Array.isArray(encodeColumn([[1], [1], [1], [1], [1], [1], [1], [1]]))).toBe(true);
  });
});

/** A small hand-made index part: what each rule selects is plain to see. */
function part(rows: Record<string, unknown>[]): FindIndexPart {
  const names = Object.keys(rows[0] ?? {});
  return {
    resource: "test",
    offset: 0,
    rows: rows.length,
    item_keys: ["id"],
    items: { id: rows.map((r) => r.id) },
    columns: Object.fromEntries(
      names.map((n) => [n, n === "subjects" ? encodeLists(rows.map((r) => r[n] as string[])) : encodeColumn(rows.map((r) => r[n]))]),
    ),
  };
}

describe("findRows", () => {
  const schools = part([
    {
      id: "a",
      search: searchKey("Pretoria Boys' High School"),
      emis_number: "700231316",
      latitude: -25.760791,
      longitude: 28.224005,
      quintile: 5,
      subjects: ["x"],
    },
    {
      id: "b",
      search: searchKey("Pretoria High School for Girls"),
      emis_number: "700231999",
      latitude: -25.7626,
      longitude: 28.2186,
      quintile: 5,
      subjects: [],
    },
    {
      id: "c",
      search: searchKey("Hoërskool Pretoria"),
      emis_number: "700111111",
      latitude: -25.7479,
      longitude: 28.2293,
      quintile: 4,
      subjects: ["x", "y"],
    },
    { id: "d", search: searchKey("Pretoria"), emis_number: "700222222", latitude: null, longitude: null, quintile: null, subjects: [] },
    { id: "e", search: searchKey("Durban High School"), emis_number: "500111111", latitude: -29.83, longitude: 31.01, quintile: 5, subjects: ["y"] },
  ]);
  const ids = (criteria: Criterion[], radius = 10) => findRows([schools], criteria, radius).map((h) => columnValue(schools.items.id as never, h.row));
  const q = (text: string): Criterion => ({
    name: "q",
    match: { kind: "search", columns: ["search", "emis_number"] },
    value: text.split(" ").map(searchKey),
  });

  it("search: every word starts a word; exact name first, then names that start with the query, then the rest", () => {
    expect(ids([q("pretoria")])).toEqual(["d", "a", "b", "c"]);
    expect(ids([q("pretoria boys")])).toEqual(["a"]);
    expect(ids([q("hoerskool")])).toEqual(["c"]);
    expect(ids([q("high pre")])).toEqual(["a", "b"]);
    expect(ids([q("toria")])).toEqual([]);
    expect(ids([q("7002")])).toEqual(["a", "b", "d"]);
    expect(ids([q("70023")])).toEqual(["a", "b"]);
    expect(ids([q("7001 hoer")])).toEqual(["c"]);
  });

  it("equals, includes and their combination (AND)", () => {
    const quintile = (v: number): Criterion => ({ name: "quintile", match: { kind: "equals", column: "quintile" }, value: v });
    const subject = (v: string): Criterion => ({ name: "subject", match: { kind: "includes", column: "subjects" }, value: v });
    expect(ids([quintile(5)])).toEqual(["a", "b", "e"]);
    expect(ids([subject("y")])).toEqual(["c", "e"]);
    expect(ids([quintile(5), subject("y")])).toEqual(["e"]);
    expect(ids([quintile(3)])).toEqual([]);
    expect(ids([subject("nothing")])).toEqual([]);
  });

  it("near: within the radius, nearest first, rows without coordinates left out", () => {
    const near: Criterion = {
      name: "near",
      match: { kind: "near", latitude: "latitude", longitude: "longitude" },
      value: { latitude: -25.7479, longitude: 28.2293 },
    };
    const hits = findRows([schools], [near], 5);
    expect(hits.map((h) => h.row)).toEqual([2, 0, 1]);
    expect(hits[0]?.distance).toBe(0);
    // 0.012891° of latitude (1.433 km) and 0.005295° of longitude at 25.75° S (0.530 km): 1.528 km
    expect(hits[1]?.distance).toBeCloseTo(1.528, 2);
    expect(ids([near], 1)).toEqual(["c"]);
    expect(ids([near], 100)).toEqual(["c", "a", "b"]);
    expect(ids([near, q("pretoria high")], 5)).toEqual(["a", "b"]);
  });

  it("open-on: a cycle opens on or before the date (or has no opening date) and closes on or after it", () => {
    const bursaries = part([
      { id: "open-window", cycles: [["2026-03-01", "2026-06-30"]] },
      { id: "no-opening-date", cycles: [[null, "2026-05-31"]] },
      {
        id: "two-cycles",
        cycles: [
          ["2025-03-01", "2025-06-30"],
          ["2026-07-01", "2026-09-30"],
        ],
      },
    ]);
    const open = (date: string) =>
      findRows([bursaries], [{ name: "open_on", match: { kind: "open-on", column: "cycles" }, value: date }], 10).map((h) => h.row);
    expect(open("2026-03-01")).toEqual([0, 1]);
    expect(open("2026-05-31")).toEqual([0, 1]);
    expect(open("2026-06-01")).toEqual([0]);
    expect(open("2026-06-30")).toEqual([0]);
    expect(open("2026-07-01")).toEqual([2]);
    expect(open("2025-04-01")).toEqual([1, 2]);
    expect(open("2027-01-01")).toEqual([]);
  });
});

describe("bursaries: fields and cycles", () => {
  it("field slugs are the bursary's own, or every field for a bursary open to all fields; cycles are the published ones", () => {
    const named = model.bursaries.find((x) => x.fields.includes("engineering") && !x.fields.includes("all-fields"));
    const open = model.bursaries.find((x) => x.fields.includes("all-fields"));
    expect(named && open).toBeTruthy();
    if (!named || !open) return;
    expect(bursaryFieldSlugs(named)).toEqual(named.fields);
    expect(bursaryFieldSlugs(open)).toEqual([...FIELDS_OF_STUDY]);
    expect(bursaryCycles(named)).toEqual(named.cycles.map((c) => [c.open_date, c.close_date]));
    const annual = model.bursaries.find((x) => x.expected_next_cycle !== null);
    // An expected cycle is never a cycle of the index: open_on reads published cycles only.
    expect(annual && bursaryCycles(annual).some(([, close]) => close === annual.expected_next_cycle?.close_date)).toBe(false);
  });
});

describe("the parameter table (schema/query.ts)", () => {
  it("gives every parameter a description and an example its own schema accepts", () => {
    for (const resource of Object.keys(LIST_QUERY_PARAMETERS) as ListResource[]) {
      for (const [name, definition] of listParameters(resource)) {
        expect(definition.description.length, `${resource} ${name}`).toBeGreaterThan(10);
        expect(definition.schema.safeParse(definition.example).success, `${resource} ${name}=${definition.example}`).toBe(true);
      }
    }
  });

  it("is what the README documents: every parameter with an example, and every example is a valid request", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Finding records"), readme.indexOf("**Bursaries: `field`, `study_level` and `open_on`.**"));
    expect(section.length).toBeGreaterThan(1000);
    for (const resource of Object.keys(LIST_QUERY_PARAMETERS) as ListResource[]) {
      for (const [name, { match }] of listParameters(resource)) {
        if (match.kind === "page") continue; // one row for every list
        expect(section, `${resource} ${name}`).toMatch(new RegExp(`/v1/data/${resource}\\?([^\\s\`]*&)?${name}=`));
      }
    }
    const examples = [...section.matchAll(/`(\/v1\/data\/[a-z-]+)\?([^`]+)`/g)];
    expect(examples.length).toBeGreaterThan(25);
    for (const [, route, query] of examples) {
      const resource = (route ?? "").split("/").pop() ?? "";
      expect(() => parseListQuery(resourceNamed(resource as ResourceName), new URLSearchParams(query)), `${route}?${query}`).not.toThrow();
    }
  });

  it("gives the OpenAPI document each parameter's string form", () => {
    const schemaOf = (p: QueryParameter) => z.toJSONSchema(p.schema, { io: "input", unrepresentable: "any" });
    expect(schemaOf(LIST_QUERY_PARAMETERS["high-schools"].sector)).toMatchObject({ type: "string", enum: ["public", "independent"] });
    for (const resource of Object.keys(LIST_QUERY_PARAMETERS) as ListResource[]) {
      for (const [name, definition] of listParameters(resource))
        expect(schemaOf(definition), `${resource} ${name}`).toMatchObject({ type: "string" });
    }
  });
});
