// Serving: the precomputed files in dist/ (the ASSETS binding) turned into response bodies. The build did
// the work; here a list page is at most two chunk files sliced, a detail is one file (or one record picked
// out of its bucket), and the envelope's meta comes from the manifest.
import { bucketOf } from "../lib/buckets.ts";
import { paths, type Manifest, type ResourceManifest } from "../lib/layout.ts";
import { chunksForPage, type PageRequest } from "../lib/pagination.ts";
import { servedProspectus } from "../lib/prospectuses.ts";
import { readAsset, readJsonAsset } from "./assets.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { findPage } from "./find.ts";
import { parseListQuery } from "./query.ts";
import type { Target } from "./route.ts";

function resourceOf(manifest: Manifest, name: string): ResourceManifest {
  const resource = manifest.resources[name];
  if (!resource) throw new Error(`the manifest has no resource ${name}`);
  return resource;
}

/** Prospectus records carry a document path; the URL depends on the deployment's asset base. */
function finishRecord(resource: string, record: unknown, assetBase: () => string): unknown {
  if (resource !== "prospectuses") return record;
  return servedProspectus(record as { document_path: string } & Record<string, unknown>, assetBase());
}

async function listPage(env: Env, url: URL, manifest: Manifest, resourceName: string, request: PageRequest): Promise<string> {
  const resource = resourceOf(manifest, resourceName);
  const { chunks, offset, count } = chunksForPage(request, resource.total, resource.list?.chunk_size ?? 1);
  const records: unknown[] = [];
  for (const chunk of chunks) records.push(...((await readJsonAsset<unknown[]>(env, paths.listChunk(resourceName, chunk))) ?? []));
  const assetBase = () => assetBaseOf(url, env);
  const data = records.slice(offset, offset + count).map((r) => finishRecord(resourceName, r, assetBase));
  return JSON.stringify({ data, meta: { total: resource.total, page: request.page, per_page: request.per_page } });
}

async function detail(env: Env, manifest: Manifest, resourceName: string, key: string): Promise<string> {
  const resource = resourceOf(manifest, resourceName);
  const notFound = () => new ApiError("not_found", `No ${resourceName} record with the key '${key}'`);
  if (resource.detail?.kind === "buckets") {
    const bucket = await readJsonAsset<Record<string, unknown>>(env, paths.bucket(resourceName, bucketOf(key, resource.detail.count)));
    const record = bucket?.[key];
    if (record === undefined) throw notFound();
    return JSON.stringify({ data: record });
  }
  const body = await readAsset(env, paths.detail(resourceName, key));
  if (body === null) throw notFound();
  return body;
}

/** The body of a GET, or an ApiError (400 for bad query parameters or pagination, 404 for an unknown key). */
export async function serveGet(target: Target, url: URL, env: Env, manifest: Manifest): Promise<string> {
  switch (target.kind) {
    case "list": {
      // Query parameters are read by the table in schema/query.ts (functions/query.ts); with filters, a
      // search or near, the page comes from the list's find index (functions/find.ts).
      const query = parseListQuery(target.resource, url.searchParams);
      if (query.criteria.length === 0) return listPage(env, url, manifest, target.resource, query.page);
      const assetBase = () => assetBaseOf(url, env);
      return findPage(env, manifest, target.resource, query, (item) => finishRecord(target.resource, item, assetBase));
    }
    case "whole": {
      parseListQuery(target.resource, url.searchParams); // takes no parameters: anything sent is a 400
      const body = await readAsset(env, paths.wholeList(target.resource));
      if (body === null) throw new Error(`dist/ has no ${target.resource} list`);
      return body;
    }
    case "detail":
      return detail(env, manifest, target.resource, target.key);
    case "requirements": {
      const body = await readAsset(env, paths.requirements(target.id));
      if (body === null) throw new ApiError("not_found", `No qualification with the id '${target.id}'`);
      return body;
    }
    default:
      throw new Error(`serveGet cannot serve ${target.kind}`);
  }
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The base URL of mirrored documents. A URL handed to clients is never built from request headers in a
 * deployment: ASSET_URL must be set there. Only a loopback origin (local development and tests) may stand
 * in for an empty ASSET_URL; any other Host gets a 500 misconfigured rather than a URL we did not choose.
 */
function assetBaseOf(url: URL, env: Env): string {
  if (env.ASSET_URL) return env.ASSET_URL.replace(/\/+$/, "");
  if (LOOPBACK_HOSTS.has(url.hostname)) return `${url.origin}/assets`;
  console.error(`ASSET_URL is not set and the request's host ${JSON.stringify(url.host)} is not a loopback address; refusing to build URLs from it`);
  throw new ApiError("misconfigured", "This deployment has no ASSET_URL configured, so it cannot give out document URLs; the error has been logged");
}

/** Where a prospectus document really is: the university's own copy, until mirrored copies exist. */
export async function prospectusDocumentUrl(env: Env, documentPath: string): Promise<string | null> {
  const documents = await readJsonAsset<Record<string, string>>(env, paths.prospectusDocuments());
  return documents?.[documentPath] ?? null;
}
