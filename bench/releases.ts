// Releases and bulk files at their largest (issue 27): the committed sources with 400 days of simulated history
// before the committed release (a release a day, each changing 40 real records), built with the bulk files. Prints
// the build's time beside a build of the same sources with only the committed history, the files against
// Cloudflare's 20,000, and the Worker's time for the first and the last page of /v1/changes since the oldest release.
import { readdirSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { defaultBuildOptions, runBuild } from "../build/index.ts";
import type { Principal } from "../functions/authenticate.ts";
import { manifestOf } from "../functions/assets.ts";
import { serveChanges } from "../functions/sync.ts";
import { addDays } from "../lib/dates.ts";
import { copyOfSources, removeAll, tempDir } from "../lib/files.ts";
import { SCOPES } from "../domain/scopes.ts";
import { RETENTION_DAYS, type ReleaseFile, type StoredChange } from "../schema/releases.ts";
import { envOverDist } from "../support/dist-env.ts";
import { ROOT } from "../support/test-dataset.ts";

const CHANGES_A_DAY = 40;

/** Every file under a folder, with its size. */
function files(folder: string): { path: string; bytes: number }[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { path: path.relative(folder, file), bytes: statSync(file).size };
    });
}

/** 400 days of releases before `latest`, each changing CHANGES_A_DAY records drawn from the real keys. */
async function simulateHistory(sources: string, latest: ReleaseFile): Promise<number> {
  const keys: Record<string, string[]> = {};
  for (const name of ["high-schools", "postal-codes", "qualifications", "bursaries"]) {
    const text = await readFile(path.join(sources, "releases", "fingerprints", `${name}.json`), "utf8");
    keys[name] = [...text.matchAll(/^\["([^"]+)"/gm)].map((m) => m[1] ?? "");
  }
  const names = Object.keys(keys);
  const latestDay = latest.id.slice(0, 10);
  for (let k = RETENTION_DAYS; k >= 1; k--) {
    const id = addDays(latestDay, -k);
    const changes: StoredChange[] = [];
    for (let i = 0; i < CHANGES_A_DAY; i++) {
      const resource = names[(k + i) % names.length] ?? "high-schools";
      const list = keys[resource] ?? [];
      changes.push({ resource, key: list[(k * 7919 + i * 104729) % list.length] ?? "", change: "changed", fields: ["name"] });
    }
    changes.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : a.key < b.key ? -1 : 1));
    const counts = Object.fromEntries(
      Object.entries(latest.resources).map(([name, c]) => [
        name,
        { total: c.total, added: 0, removed: 0, changed: changes.filter((x) => x.resource === name).length },
      ]),
    );
    const release: ReleaseFile = {
      ...latest,
      id,
      built_at: `${id}T01:00:00Z`,
      previous: k === RETENTION_DAYS ? null : addDays(latestDay, -k - 1),
      baseline: k === RETENTION_DAYS,
      resources: counts,
      changes: k === RETENTION_DAYS ? [] : changes,
    };
    await writeFile(path.join(sources, "releases", `${id}.json`), JSON.stringify(release));
  }
  return RETENTION_DAYS;
}

async function timedBuild(sources: string, out: string) {
  const started = performance.now();
  const result = await runBuild(defaultBuildOptions(ROOT, { sourcesDir: sources, outDir: out }));
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`the build failed: ${JSON.stringify(result.problems.slice(0, 3))}`);
  return { seconds, result };
}

export async function benchReleases(): Promise<void> {
  const sources = await copyOfSources({ national: true });
  const work = await tempDir("bench-releases");
  try {
    const plain = await timedBuild(sources, path.join(work, "plain"));
    const folder = path.join(sources, "releases");
    const [latestName] = readdirSync(folder)
      .filter((n) => n.endsWith(".json"))
      .sort()
      .reverse();
    const latest = JSON.parse(await readFile(path.join(folder, latestName ?? ""), "utf8")) as ReleaseFile;
    const simulated = await simulateHistory(sources, latest);
    const dist = path.join(work, "history");
    const withHistory = await timedBuild(sources, dist);
    const all = files(dist);
    const sum = (filter: (p: string) => boolean) => all.filter((f) => filter(f.path)).reduce((n, f) => n + f.bytes, 0);
    const bulk = all.filter((f) => f.path.startsWith(path.join("_internal", "bulk")));
    const changes = all.filter((f) => f.path.startsWith(path.join("_internal", "changes")));
    const largest = all.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    console.log(`  releases kept: ${simulated + 1} (${simulated} simulated days of ${CHANGES_A_DAY} changes, and the committed one)`);
    console.log(`  build time: ${withHistory.seconds.toFixed(2)} s with that history; ${plain.seconds.toFixed(2)} s with the committed one alone`);
    console.log(
      `  files: ${all.length} of Cloudflare's 20,000 (${20_000 - all.length} to spare): ${bulk.length} bulk files (${mib(sum((p) => p.startsWith(path.join("_internal", "bulk"))))}), ${changes.length} change files (${mib(sum((p) => p.startsWith(path.join("_internal", "changes"))))})`,
    );
    console.log(`  largest file: ${largest.path}, ${mib(largest.bytes)} (Cloudflare's limit: 25 MiB)`);

    // The Worker's time for /v1/changes since the oldest release: the first page, and the last.
    const env = envOverDist(dist);
    // As the Worker does: the manifest first, which keys the isolate's cache of parsed documents.
    const manifest = await manifestOf(env);
    const principal = { scopes: new Set(SCOPES) } as unknown as Principal;
    const oldest = addDays(latest.id.slice(0, 10), -RETENTION_DAYS);
    const total = simulated * CHANGES_A_DAY - CHANGES_A_DAY;
    for (const page of [1, Math.ceil(total / 100)]) {
      const url = new URL(`http://127.0.0.1/v1/changes?since=${oldest}&per_page=100&page=${page}`);
      await serveChanges(url, env, manifest, principal);
      const runs = 20;
      const started = performance.now();
      for (let i = 0; i < runs; i++) await serveChanges(url, env, manifest, principal);
      console.log(
        `  /v1/changes since the oldest release, page ${page} (100 a page): ${((performance.now() - started) / runs).toFixed(2)} ms (warm isolate; files read from disk)`,
      );
    }
  } finally {
    await removeAll(sources, work);
  }
}
