// The one order of names (build/order.ts): sorting grouped by a first text gives what one sort comparing that text
// first gives, for any texts (accents, case, digits, the same letters in different forms).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byText, sortGrouped } from "../../build/order.ts";
import { runs } from "../support/properties.ts";

describe("sortGrouped", () => {
  it("orders as one sort by the first text, then the rest, would", () => {
    const text = fc.oneof(fc.constantFrom("Área", "area", "Area", "AREA", "Zone 2", "Zone 10", "zone 2", ""), fc.string({ maxLength: 6 }));
    const record = fc.record({ first: text, second: text, id: fc.nat() });
    fc.assert(
      fc.property(fc.uniqueArray(record, { selector: (r) => r.id, maxLength: 60 }), (records) => {
        const rest = (a: (typeof records)[number], b: (typeof records)[number]) => byText(a.second, b.second) || a.id - b.id;
        const once = [...records].sort((a, b) => byText(a.first, b.first) || rest(a, b));
        expect(sortGrouped(records, (r) => r.first, rest)).toEqual(once);
      }),
      { numRuns: runs(300) },
    );
  });
});
