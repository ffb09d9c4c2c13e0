// The dependency direction between top-level folders (README, "Layout"): no import from scripts/ or test/
// outside them, and no cycle between folders. Read off the import statements of every TypeScript file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../lib/root.ts";

const SKIP = new Set(["node_modules", "dist", ".test-dist", ".git", ".wrangler", ".scratch", "client"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || name.startsWith(".")) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|mts)$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

const folderOf = (file: string) => {
  const relative = path.relative(ROOT, file);
  return relative.includes(path.sep) ? (relative.split(path.sep)[0] as string) : ".";
};

/** Folder -> the folders its files import from (relative imports only). */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(ROOT)) {
    const from = folderOf(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*"(\.[^"]+)"/g)) {
      const to = folderOf(path.resolve(path.dirname(file), spec as string));
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), path.relative(ROOT, file)]);
      graph.set(from, edges);
    }
  }
  return graph;
}

describe("the layout", () => {
  const graph = folderGraph();

  it("imports nothing from scripts/ or test/ outside them", () => {
    const offenders = [...graph].flatMap(([from, edges]) =>
      ["scripts", "test"].flatMap((forbidden) =>
        from !== forbidden && edges.has(forbidden) ? (edges.get(forbidden) ?? []).map((f) => `${f} -> ${forbidden}/`) : [],
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("has no cycle between top-level folders", () => {
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      for (const next of graph.get(node)?.keys() ?? []) {
        if (next === trail[0]) cycles.push([...trail, next].join(" -> "));
        else if (!trail.includes(next) && next > (trail[0] ?? "")) visit(next, [...trail, next]);
      }
    };
    for (const start of graph.keys()) visit(start, [start]);
    expect(cycles).toEqual([]);
  });
});
