// GET /v1/meta, /v1/releases and /v1/changes: answered from the files the build wrote (build/meta.ts,
// build/releases.ts). A page of changes reads only the release files it covers: the index's counts say how many
// changes each release holds for the resources the token may read, so earlier releases are skipped unread.
import { paths, type Manifest } from "../lib/layout.ts";
import type { PageRequest } from "../lib/pagination.ts";
import { SYNC_QUERY_PARAMETERS } from "../schema/query.ts";
import { compareReleaseIds, DATA_VERSION, type Change, type Release, type ReleaseIndex, type StoredChange } from "../schema/releases.ts";
import { RESOURCES, type ResourceName } from "../schema/resources.ts";
import { cachedJsonAsset, readAsset } from "./assets.ts";
import { grants } from "../domain/scopes.ts";
import type { Principal } from "./authenticate.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { parseQuery } from "./query.ts";

async function releaseIndex(env: Env, manifest: Manifest): Promise<ReleaseIndex> {
  const index = await cachedJsonAsset<ReleaseIndex>(env, manifest, paths.releases());
  if (!index) throw new Error("dist/ has no release index: run `npm run build`");
  return index;
}

export async function serveMeta(url: URL, env: Env): Promise<string> {
  parseQuery({}, "/v1/meta", url.searchParams);
  const body = await readAsset(env, paths.meta());
  if (body === null) throw new Error("dist/ has no meta document: run `npm run build`");
  return body;
}

export async function serveReleases(url: URL, env: Env, manifest: Manifest): Promise<string> {
  const { page } = parseQuery(SYNC_QUERY_PARAMETERS.releases, "/v1/releases", url.searchParams);
  const { releases } = await releaseIndex(env, manifest);
  const start = (page.page - 1) * page.per_page;
  return JSON.stringify({
    data: releases.slice(start, start + page.per_page),
    meta: { total: releases.length, page: page.page, per_page: page.per_page },
  });
}

/** The release `since` names: a release id, or a data version of a release (or another name for one). */
function resolveSince(since: string, index: ReleaseIndex): Release {
  const releases = index.releases;
  const oldest = releases.at(-1);
  if (DATA_VERSION.test(since)) {
    const id = index.aliases[since] ?? releases.find((r) => r.data_version === since)?.id;
    const found = releases.find((r) => r.id === id);
    if (found) return found;
    throw new ApiError(
      "release_gone",
      `since: no kept release has data version ${since}; it is older than the kept history${oldest ? ` (from ${oldest.id})` : ""}, or was never published. Download the bulk files (/v1/bulk/) again.`,
    );
  }
  const found = releases.find((r) => r.id === since);
  if (found) return found;
  if (!oldest || compareReleaseIds(since, oldest.id) < 0) {
    throw new ApiError(
      "release_gone",
      `since: release ${since} is older than the kept history${oldest ? ` (from ${oldest.id})` : ""}; download the bulk files (/v1/bulk/) again.`,
    );
  }
  throw new ApiError("unknown_release", `since: there is no release ${since}; GET /v1/releases lists them`, {
    details: [{ path: "since", message: "is not the id of a kept release" }],
  });
}

/** The resources whose changes a token may see: those whose detail (or list) it may read. */
function visibleResources(principal: Principal): Set<string> {
  return new Set((Object.keys(RESOURCES) as ResourceName[]).filter((name) => grants(principal.scopes, RESOURCES[name].scope)));
}

function changeCount(release: Release, visible: Set<string>): number {
  let n = 0;
  for (const [resource, counts] of Object.entries(release.resources)) if (visible.has(resource)) n += counts.added + counts.removed + counts.changed;
  return n;
}

export async function serveChanges(url: URL, env: Env, manifest: Manifest, principal: Principal): Promise<string> {
  const query = parseQuery(SYNC_QUERY_PARAMETERS.changes, "/v1/changes", url.searchParams);
  const since = query.criteria.find((c) => c.name === "since")?.value;
  if (typeof since !== "string") {
    throw new ApiError("invalid_parameter", "since is required: a release id (GET /v1/releases) or a data version", {
      details: [{ path: "since", message: "is required" }],
    });
  }
  const index = await releaseIndex(env, manifest);
  const from = resolveSince(since, index);
  const after = index.releases.filter((r) => compareReleaseIds(r.id, from.id) > 0).reverse();
  const visible = visibleResources(principal);
  const counts = after.map((r) => changeCount(r, visible));
  const total = counts.reduce((a, b) => a + b, 0);
  const data = await pageOfChanges(env, manifest, after, counts, visible, query.page);
  const until = index.releases[0]?.id ?? null;
  return JSON.stringify({ data, meta: { total, page: query.page.page, per_page: query.page.per_page, since: from.id, until } });
}

async function pageOfChanges(
  env: Env,
  manifest: Manifest,
  releases: Release[],
  counts: number[],
  visible: Set<string>,
  page: PageRequest,
): Promise<Change[]> {
  let skip = (page.page - 1) * page.per_page;
  const data: Change[] = [];
  for (const [i, release] of releases.entries()) {
    if (data.length >= page.per_page) break;
    const count = counts[i] ?? 0;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const stored = (await cachedJsonAsset<StoredChange[]>(env, manifest, paths.changes(release.id))) ?? [];
    for (const change of stored) {
      if (!visible.has(change.resource)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      data.push({ release: release.id, ...change });
      if (data.length >= page.per_page) break;
    }
  }
  return data;
}
