// npm run fuzz finds the property tests to run with more runs: every test file of a folder that holds an fc.assert.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { propertyTestFiles } from "../../support/property-tests.ts";
import { removeAll, tempDir } from "../../lib/files.ts";

const cleanup: string[] = [];
afterAll(() => removeAll(...cleanup));

describe("propertyTestFiles", () => {
  it("lists the files of the folder with the suffix that hold a property, sorted", async () => {
    const root = await tempDir("property-files");
    cleanup.push(root);
    await mkdir(path.join(root, "test", "node"), { recursive: true });
    const files: Record<string, string> = {
      "b.test.ts": "fc.assert(fc.property(fc.nat(), () => true));",
      "a.test.ts": "await fc.assert(fc.asyncProperty(fc.nat(), async () => true));",
      "plain.test.ts": "expect(1).toBe(1);",
      "helper.ts": "fc.assert(fc.property(fc.nat(), () => true));",
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(root, "test", "node", name), text);
    expect(propertyTestFiles("test/node", ".test.ts", root)).toEqual(["a", "b"].map((name) => path.join("test", "node", `${name}.test.ts`)));
  });

  it("finds the property tests of both suites in the repository, the fuzz suite among them", () => {
    expect(propertyTestFiles("test/worker", ".spec.ts")).toContain("test/worker/fuzz.spec.ts");
    expect(propertyTestFiles("test/node", ".test.ts")).toContain("test/node/id-number.property.test.ts");
  });
});
