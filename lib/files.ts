// File-tree helpers for tests: temporary copies of sources/, and a byte-exact fingerprint of a folder.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./root.ts";

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
}

/** The national tables: tens of thousands of rows, which most tests of the pipeline do not need. */
const NATIONAL_TABLES = new Set(["high-schools.csv", "postal-codes.csv", "nsc-results.csv"]);

/**
 * A copy of the committed sources/ in a new temporary folder; without the national tables unless asked (a build
 * of the curated tables alone takes a fraction of the time, and the national tables have tests of their own).
 */
export async function copyOfSources(options: { national?: boolean } = {}): Promise<string> {
  const dir = await tempDir("sources");
  const skip = (src: string) => !options.national && path.dirname(src) === path.join(ROOT, "sources") && NATIONAL_TABLES.has(path.basename(src));
  await cp(path.join(ROOT, "sources"), dir, { recursive: true, filter: (src) => !skip(src) });
  return dir;
}

/** Every file below `dir` with the SHA-256 of its bytes, sorted by path. The files are read synchronously: for a
 * build's few thousand small files that is several times faster than a promise per file. */
export async function fingerprint(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const digests = files.map((full): [string, string] => [path.relative(dir, full), createHash("sha256").update(readFileSync(full)).digest("hex")]);
  return new Map(digests.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A copy of the folder `from` at `to`, file by file, read and written synchronously: for a build's few thousand
 * small files several times faster than fs.cp (or copyFileSync). */
export function copyFolder(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) copyFolder(source, target);
    else writeFileSync(target, readFileSync(source));
  }
}

export async function removeAll(...dirs: string[]) {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
