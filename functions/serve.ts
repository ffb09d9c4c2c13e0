// Serving: the precomputed files in dist/ (the ASSETS binding) turned into response bodies, one function
// per kind of GET target (functions/index.ts dispatches). The build did the work; here a list page is at
// most two chunk files sliced (their text, by offset tables: lib/sliced.ts), a detail is one file (or one
// record's text cut out of its bucket), and the envelope's meta comes from the manifest. Everything resource-specific comes from the registry entry the
// target carries (schema/resources.ts).
import { bucketOf } from "../lib/buckets.ts";
import { paths, type Manifest, type ResourceManifest } from "../lib/layout.ts";
import { chunksForPage, type PageRequest } from "../lib/pagination.ts";
import { bucketRecordText, chunkItems, chunkItemsText } from "../lib/sliced.ts";
import { cachedTextAsset, readAsset, readJsonAsset } from "./assets.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { findPage } from "./find.ts";
import { parseListQuery } from "./query.ts";
import type { Resource, ResourceName, StoredItemOf } from "../schema/resources.ts";

function resourceOf(manifest: Manifest, name: ResourceName): ResourceManifest {
  const resource = manifest.resources[name];
  if (!resource) throw new Error(`the manifest has no resource ${name}`);
  return resource;
}

/** A stored list record as served: the registry's `served` step (prospectuses: the document's URL). */
function finisher(resource: Resource, url: URL, env: Env): (record: Record<string, unknown>) => unknown {
  const served = resource.definition.served;
  return served ? (record) => served(record, () => assetBaseOf(url, env)) : (record) => record;
}

/** A page of a list's stored items, typed by the registry (the chunk files hold what build/records.ts stored). */
async function listPage<N extends ResourceName>(env: Env, manifest: Manifest, resourceName: N, request: PageRequest): Promise<StoredItemOf<N>[]> {
  const resource = resourceOf(manifest, resourceName);
  const { chunks, offset, count } = chunksForPage(request, resource.total, resource.list?.chunk_size ?? 1);
  const records: StoredItemOf<N>[] = [];
  for (const chunk of chunks) {
    const text = await readAsset(env, paths.listChunk(resourceName, chunk));
    if (text !== null) records.push(...chunkItems<StoredItemOf<N>>(text));
  }
  return records.slice(offset, offset + count);
}

/**
 * The JSON text of a page's items, joined by commas, cut out of the chunks' text by their offset tables
 * (lib/sliced.ts) with no parse: what JSON.stringify of the parsed items gives, byte for byte.
 */
async function listPageText(env: Env, manifest: Manifest, resourceName: ResourceName, request: PageRequest): Promise<string> {
  const resource = resourceOf(manifest, resourceName);
  const chunkSize = resource.list?.chunk_size ?? 1;
  const { chunks, offset, count } = chunksForPage(request, resource.total, chunkSize);
  const texts = await Promise.all(chunks.map((chunk) => cachedTextAsset(env, manifest, paths.listChunk(resourceName, chunk))));
  const parts: string[] = [];
  let from = offset;
  let left = count;
  for (const text of texts) {
    if (text === null) throw new Error(`dist/ has no list chunk of ${resourceName} for page ${request.page}`);
    const to = Math.min(chunkSize, from + left);
    const part = chunkItemsText(text, from, to);
    if (part !== "") parts.push(part);
    left -= to - from;
    from = 0;
  }
  return parts.join(",");
}

/**
 * A paginated list's page. Query parameters are read by the resource's table (schema/query.ts,
 * functions/query.ts); with filters, a search or near, the page comes from the list's find index.
 */
export async function serveList(resource: Resource, url: URL, env: Env, manifest: Manifest): Promise<string> {
  const query = parseListQuery(resource, url.searchParams);
  const finish = finisher(resource, url, env);
  if (query.criteria.length > 0) return findPage(env, manifest, resource.name, query, finish);
  const { page, per_page } = query.page;
  const meta = JSON.stringify({ total: resourceOf(manifest, resource.name).total, page, per_page });
  // Stored items served as they are (every list but the prospectuses) are sliced, not parsed.
  if (!resource.definition.served) return `{"data":[${await listPageText(env, manifest, resource.name, query.page)}],"meta":${meta}}`;
  const data = (await listPage(env, manifest, resource.name, query.page)).map(finish);
  return `{"data":${JSON.stringify(data)},"meta":${meta}}`;
}

/** An unpaginated list, whole; it takes no parameters, so anything sent is a 400. */
export async function serveWhole(resource: Resource, url: URL, env: Env): Promise<string> {
  parseListQuery(resource, url.searchParams);
  const body = await readAsset(env, paths.wholeList(resource.name));
  if (body === null) throw new Error(`dist/ has no ${resource.name} list`);
  return body;
}

/** One record by its key: its own file, or picked out of its bucket; 404 for an unknown key. */
export async function serveDetail(resource: Resource, key: string, env: Env, manifest: Manifest): Promise<string> {
  const stored = resourceOf(manifest, resource.name);
  const notFound = () => new ApiError("not_found", `No ${resource.name} record with the key '${key}'`);
  if (stored.detail?.kind === "buckets") {
    // The record's text is cut out of the bucket by its offset table (lib/sliced.ts), not parsed.
    const bucket = await cachedTextAsset(env, manifest, paths.bucket(resource.name, bucketOf(key, stored.detail.count)));
    const record = bucket === null ? undefined : bucketRecordText(bucket, key);
    if (record === undefined) throw notFound();
    return `{"data":${record}}`;
  }
  const body = await readAsset(env, paths.detail(resource.name, key));
  if (body === null) throw notFound();
  return body;
}

/** A qualification's subject requirements; 404 for an unknown id. */
export async function serveRequirements(id: string, env: Env): Promise<string> {
  const body = await readAsset(env, paths.requirements(id));
  if (body === null) throw new ApiError("not_found", `No qualification with the id '${id}'`);
  return body;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The base URL of mirrored documents. A URL handed to clients is never built from request headers in a
 * deployment: ASSET_URL must be set there. Only a loopback origin (local development and tests) may stand
 * in for an empty ASSET_URL; any other Host gets a 500 misconfigured rather than a URL we did not choose.
 */
export function assetBaseOf(url: URL, env: Env): string {
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
