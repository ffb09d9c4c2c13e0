// Step 4 of the nightly rebuild: what changed between the published build and the new one, per
// resource, from the manifests and the record digests every build writes (lib/layout.ts recordDigests).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { MANIFEST_PATH, paths, type Manifest } from "../lib/layout.ts";

/** How many example keys of each kind the report lists per resource. */
const EXAMPLES = 10;

type ResourceDiff = {
  resource: string;
  /** null when the published build does not have the resource (or there is no published build). */
  oldTotal: number | null;
  newTotal: number;
  added: number;
  removed: number;
  changed: number;
  /** false when the published build has no record digests: only totals can be compared. */
  detailed: boolean;
  examples: { added: string[]; removed: string[]; changed: string[] };
};

export type BuildDiff = { oldVersion: string | null; newVersion: string; resources: ResourceDiff[] };

async function readJson<T>(file: string): Promise<T | null> {
  if (!existsSync(file)) return null;
  return JSON.parse(await readFile(file, "utf8")) as T;
}

const inDist = (dist: string, publicPath: string) => path.join(dist, ...publicPath.split("/").filter(Boolean));

async function readManifest(dist: string): Promise<Manifest | null> {
  return readJson<Manifest>(inDist(dist, MANIFEST_PATH));
}

async function readDigests(dist: string, resource: string): Promise<Record<string, string> | null> {
  return readJson<Record<string, string>>(inDist(dist, paths.recordDigests(resource)));
}

/** Compares two key -> digest maps. */
function compareDigests(before: Record<string, string>, after: Record<string, string>) {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [key, digest] of Object.entries(after)) {
    const old = before[key];
    if (old === undefined) added.push(key);
    else if (old !== digest) changed.push(key);
  }
  for (const key of Object.keys(before)) if (!(key in after)) removed.push(key);
  return { added, removed, changed };
}

/** oldDist may be null or a folder without a build (the first publication). */
export async function diffBuilds(oldDist: string | null, newDist: string): Promise<BuildDiff> {
  const newManifest = await readManifest(newDist);
  if (newManifest === null) throw new Error(`no manifest in the new build at ${newDist}`);
  const oldManifest = oldDist === null ? null : await readManifest(oldDist);
  const names = [...new Set([...Object.keys(oldManifest?.resources ?? {}), ...Object.keys(newManifest.resources)])].sort();

  const resources: ResourceDiff[] = [];
  for (const resource of names) {
    const oldTotal = oldManifest?.resources[resource]?.total ?? null;
    const newTotal = newManifest.resources[resource]?.total ?? 0;
    const before = oldManifest === null || oldDist === null ? {} : await readDigests(oldDist, resource);
    const after = (await readDigests(newDist, resource)) ?? {};
    if (before === null) {
      // A build from before record digests existed: totals only.
      const delta = newTotal - (oldTotal ?? 0);
      resources.push({
        resource,
        oldTotal,
        newTotal,
        added: Math.max(delta, 0),
        removed: Math.max(-delta, 0),
        changed: 0,
        detailed: false,
        examples: { added: [], removed: [], changed: [] },
      });
      continue;
    }
    const { added, removed, changed } = compareDigests(before, after);
    resources.push({
      resource,
      oldTotal,
      newTotal,
      added: added.length,
      removed: removed.length,
      changed: changed.length,
      detailed: true,
      examples: { added: added.slice(0, EXAMPLES), removed: removed.slice(0, EXAMPLES), changed: changed.slice(0, EXAMPLES) },
    });
  }
  return { oldVersion: oldManifest?.data_version ?? null, newVersion: newManifest.data_version, resources };
}
