// The README's generated figures (issue 28): every <!--fig:NAME--> marker holds what a build of the committed
// sources gives (build/figures.ts), so this test fails while `npm run docs:figures` has not been run after a
// change to the data or the build. It reads the test data set, the same build of the same sources.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyFigures, buildFigures } from "../../build/figures.ts";
import { assembleModel, defaultBuildOptions } from "../../build/index.ts";
import { prepareTestDataset, ROOT, TEST_DIST } from "../../support/test-dataset.ts";

let figures: Record<string, string>;

beforeAll(async () => {
  await prepareTestDataset();
  const options = defaultBuildOptions(ROOT, { outDir: TEST_DIST });
  const assembly = await assembleModel(options);
  if (!assembly.ok) throw new Error("the committed sources do not build");
  figures = await buildFigures(assembly.model, assembly.conflicts, options.today, TEST_DIST);
}, 120_000);

describe("README.md's generated figures", () => {
  it("are what a fresh build of the committed sources gives (run npm run docs:figures after changing either)", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    expect(readme.match(/<!--fig:/g)?.length ?? 0).toBeGreaterThan(20);
    const stale = [...readme.matchAll(/<!--fig:([a-z0-9-]+)-->(.*?)<!--\/fig-->/g)]
      .filter(([, name, value]) => figures[name ?? ""] !== value)
      .map(([, name, value]) => `${name}: README says ${value}, the build gives ${figures[name ?? ""]}`);
    expect(stale).toEqual([]);
    expect(applyFigures(readme, figures)).toBe(readme);
  });

  it("refuses a marker that names no figure, and replaces only what is between markers", () => {
    expect(() => applyFigures("<!--fig:nonsense-->1<!--/fig-->", figures)).toThrow(/nonsense/);
    expect(applyFigures("a <!--fig:schools-->0<!--/fig--> b 0", { schools: "8,913" })).toBe("a <!--fig:schools-->8,913<!--/fig--> b 0");
  });
});
