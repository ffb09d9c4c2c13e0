// The list items of each paginated collection (build/records.ts): each detail record cut down to the list schema's
// fields, picked rather than parsed where the two schemas share a field's schema. For every record of the committed
// sources the pick must be exactly what parsing with the list schema gives; a list schema that rewrites a value is
// parsed.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assembleModel, defaultBuildOptions } from "../../build/index.ts";
import { listItems, resourceRecords } from "../../build/records.ts";
import { ROOT } from "../../lib/root.ts";

describe("list items", () => {
  it("are what the list schema's parse of each detail record gives, for every committed record", async () => {
    const assembly = await assembleModel(defaultBuildOptions(ROOT));
    if (!assembly.ok) throw new Error("the committed sources do not build");
    let compared = 0;
    for (const resource of resourceRecords(assembly.model, assembly.schemes, assembly.variants)) {
      if (!resource.list || !resource.detail) continue;
      const { schema, items } = resource.list;
      resource.detail.records.forEach(({ key, record }, at) => {
        const parsed = schema.parse(record);
        expect(items[at], `${resource.name} ${key}`).toStrictEqual(parsed);
        expect(JSON.stringify(items[at])).toBe(JSON.stringify(parsed));
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(30_000);
  });

  it("are parsed where the list schema could rewrite a value or checks the item as a whole", () => {
    const name = z.string();
    const detail = z.object({ id: z.string(), name, note: z.string().optional() });
    const records = [{ key: "a", record: { id: "a", name: "A", note: "kept out" } }];
    // Shared schemas: picked, in the list schema's order.
    expect(listItems(records as never, detail as never, z.object({ name, id: detail.shape.id }) as never)).toEqual([{ name: "A", id: "a" }]);
    // A default of the list's own: parsing fills it in.
    const withDefault = z.object({ id: detail.shape.id, flag: z.boolean().default(true) });
    expect(listItems(records as never, detail as never, withDefault as never)).toEqual([{ id: "a", flag: true }]);
    // A field the detail schema checks differently, and a refinement of the whole item: both checked by parsing.
    const stricter = z.object({ id: z.string().regex(/^b$/) });
    expect(() => listItems(records as never, detail as never, stricter as never)).toThrow();
    const refined = z.object({ id: detail.shape.id }).refine(() => false, "refused");
    expect(() => listItems(records as never, detail as never, refined as never)).toThrow(/refused/);
  });
});
