// The offset tables of list chunks and detail buckets (lib/sliced.ts): the Worker cuts records and pages out
// of the text without a parse, so every slice must be exactly JSON.stringify's text of what a parse gives.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { bucketOf } from "../../lib/buckets.ts";
import { paths, type Manifest } from "../../lib/layout.ts";
import { bucketRecords, bucketRecordText, bucketText, chunkItems, chunkItemsText, chunkText } from "../../lib/sliced.ts";
import { prepareTestDataset, TEST_DIST } from "../../support/test-dataset.ts";

const record = fc.record({
  id: fc.string(),
  name: fc.string({ unit: "binary" }),
  quintile: fc.option(fc.integer({ min: 1, max: 5 })),
  rate: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
  results: fc.array(fc.record({ year: fc.integer(), passed: fc.nat() }), { maxLength: 3 }),
});

describe("offset tables", () => {
  it("a chunk's slices are the items' own JSON text, joined by commas, for every run of items", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.nat(), fc.nat(), (items, a, b) => {
        const text = chunkText(items);
        expect(chunkItems(text)).toEqual(JSON.parse(JSON.stringify(items)));
        const from = items.length === 0 ? 0 : a % (items.length + 1);
        const to = from + (items.length === 0 ? 0 : b % (items.length - from + 1));
        expect(chunkItemsText(text, from, to)).toBe(JSON.stringify(items.slice(from, to)).slice(1, -1));
      }),
    );
  });

  it("a bucket's slice of each key is that record's JSON text; an unknown key has none", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.string(), record), { selector: ([key]) => key, maxLength: 10 }), fc.string(), (entries, other) => {
        const text = bucketText(entries);
        for (const [key, value] of entries) expect(bucketRecordText(text, key)).toBe(JSON.stringify(value));
        expect(bucketRecords(text)).toEqual(JSON.parse(JSON.stringify(Object.fromEntries(entries))));
        if (!entries.some(([key]) => key === other)) expect(bucketRecordText(text, other)).toBeUndefined();
        expect(bucketRecordText(text, "__proto__")).toBeUndefined();
      }),
    );
  });
});

describe("the built buckets and chunks (the test data set: national schools and postal codes)", () => {
  let manifest: Manifest;
  beforeAll(async () => {
    await prepareTestDataset();
    manifest = JSON.parse(await readFile(path.join(TEST_DIST, "manifest.json"), "utf8")) as Manifest;
  }, 300_000);

  it("every bucket's offset table slices exactly each of its records, and holds the keys that hash to it", async () => {
    for (const resource of ["high-schools", "postal-codes"]) {
      const storage = manifest.resources[resource]?.detail;
      if (storage?.kind !== "buckets") throw new Error(`${resource} is not bucketed`);
      const files = await readdir(path.join(TEST_DIST, `v1/data/${resource}/_buckets`));
      expect(files.length).toBe(storage.count);
      let records = 0;
      for (let b = 0; b < storage.count; b++) {
        const text = await readFile(path.join(TEST_DIST, paths.bucket(resource, b)), "utf8");
        for (const [key, value] of Object.entries(bucketRecords(text))) {
          expect(bucketOf(key, storage.count)).toBe(b);
          expect(bucketRecordText(text, key)).toBe(JSON.stringify(value));
          records++;
        }
      }
      expect(records).toBe(manifest.resources[resource]?.total);
    }
  });

  it("every chunk's offset table slices exactly each of its items", async () => {
    for (const [resource, entry] of Object.entries(manifest.resources)) {
      for (let k = 0; k < (entry.list?.chunks ?? 0); k++) {
        const text = await readFile(path.join(TEST_DIST, paths.listChunk(resource, k)), "utf8");
        const items = chunkItems(text);
        items.forEach((item, i) => {
          expect(chunkItemsText(text, i, i + 1)).toBe(JSON.stringify(item));
        });
        expect(chunkItemsText(text, 0, items.length)).toBe(JSON.stringify(items).slice(1, -1));
      }
    }
  });
});
