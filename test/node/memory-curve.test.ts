// bench/memory-curve.ts: the load-start bench's verdict on workerd's memory, from its samples.
import { describe, expect, it } from "vitest";
import { formatCurve } from "../../bench/memory-curve.ts";

describe("formatCurve", () => {
  it("calls a curve that swings around a plateau levelled off (samples of a 180 s load-start run)", () => {
    const text = formatCurve(75, [249, 323, 358, 384, 397, 443, 501, 496, 486, 499, 505, 494, 497, 511, 482, 489, 509, 514], 10);
    expect(text).toContain("each minute's peak (MiB): 443, 505, 514");
    expect(text).toContain("levelled off: the last minute's peak is +9 MiB");
  });

  it("calls a curve that climbs every minute still growing", () => {
    const text = formatCurve(
      75,
      Array.from({ length: 18 }, (_, i) => 100 + 5 * i),
      10,
    );
    expect(text).toContain("STILL GROWING: the last minute's peak is +30 MiB");
  });

  it("says when the run is too short to tell", () => {
    expect(formatCurve(75, [100, 200, 300], 10)).toContain("too short to tell");
    expect(formatCurve(75, [], 10)).toContain("no samples");
  });
});
