// Serving: the precomputed files in dist/ (the ASSETS binding) turned into responses. The build did the
// work; here a list page is at most two chunk files sliced, a detail is one file (or one record picked
// out of its bucket), and the envelope's meta comes from the manifest.
import { chunksForPage, parsePageRequest, type PageProblem } from "../lib/pagination.ts";
import { bucketOf } from "../lib/buckets.ts";
import { MANIFEST_PATH, paths, type Manifest, type ResourceManifest } from "../lib/layout.ts";
import type { Env } from "./env.ts";
import type { Target } from "./route.ts";

/** A served body, or a failure the pipeline turns into an error response. */
export type Served =
  | { ok: true; body: string }
  | { ok: false; status: 400; problems: PageProblem[] }
  | { ok: false; status: 404; message: string };

const ASSET_ORIGIN = "https://assets.internal";
/** The manifest changes only with a new build; re-reading it now and then lets `wrangler dev` pick up a rebuild. */
const MANIFEST_TTL_MS = 10_000;

let cachedManifest: { at: number; manifest: Promise<Manifest> } | null = null;

async function readAsset(env: Env, path: string): Promise<string | null> {
  const response = await env.ASSETS.fetch(new Request(`${ASSET_ORIGIN}${path}`));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`asset ${path} answered ${response.status}`);
  return response.text();
}

async function readJsonAsset<T>(env: Env, path: string): Promise<T | null> {
  const text = await readAsset(env, path);
  return text === null ? null : (JSON.parse(text) as T);
}

export function manifestOf(env: Env, now = Date.now()): Promise<Manifest> {
  if (!cachedManifest || now - cachedManifest.at > MANIFEST_TTL_MS) {
    const manifest = readJsonAsset<Manifest>(env, MANIFEST_PATH).then((m) => {
      if (!m) throw new Error("dist/manifest.json is missing: run `npm run build`");
      return m;
    });
    manifest.catch(() => (cachedManifest = null));
    cachedManifest = { at: now, manifest };
  }
  return cachedManifest.manifest;
}

function resourceOf(manifest: Manifest, name: string): ResourceManifest {
  const resource = manifest.resources[name];
  if (!resource) throw new Error(`the manifest has no resource ${name}`);
  return resource;
}

/** Prospectus records carry a document path; the URL depends on the deployment's asset base. */
function finishRecord(resource: string, record: unknown, assetBase: string): unknown {
  if (resource !== "prospectuses") return record;
  // Everything the build stored passes through; only the document path becomes a URL (placed before provenance).
  const { document_path, source_url, verified_on, ...fields } = record as { document_path: string } & Record<string, unknown>;
  return { ...fields, url: `${assetBase}${document_path}`, source_url, verified_on };
}

export async function serveGet(target: Target, url: URL, env: Env, manifest: Manifest): Promise<Served> {
  switch (target.kind) {
    case "list": {
      const request = parsePageRequest(url.searchParams.get("page"), url.searchParams.get("per_page"));
      if (Array.isArray(request)) return { ok: false, status: 400, problems: request };
      const resource = resourceOf(manifest, target.resource);
      const chunkSize = resource.list?.chunk_size ?? 1;
      const { chunks, offset, count } = chunksForPage(request, resource.total, chunkSize);
      const records: unknown[] = [];
      for (const chunk of chunks) {
        records.push(...((await readJsonAsset<unknown[]>(env, paths.listChunk(target.resource, chunk))) ?? []));
      }
      const assetBase = assetBaseOf(url, env);
      const data = records.slice(offset, offset + count).map((r) => finishRecord(target.resource, r, assetBase));
      return { ok: true, body: JSON.stringify({ data, meta: { total: resource.total, page: request.page, per_page: request.per_page } }) };
    }
    case "whole": {
      const body = await readAsset(env, paths.wholeList(target.resource));
      if (body === null) throw new Error(`dist/ has no ${target.resource} list`);
      return { ok: true, body };
    }
    case "detail": {
      const resource = resourceOf(manifest, target.resource);
      const notFound = { ok: false, status: 404, message: `No ${target.resource} record with the key '${target.key}'` } as const;
      if (resource.detail?.kind === "buckets") {
        const bucket = await readJsonAsset<Record<string, unknown>>(env, paths.bucket(target.resource, bucketOf(target.key, resource.detail.count)));
        const record = bucket?.[target.key];
        return record === undefined ? notFound : { ok: true, body: JSON.stringify({ data: record }) };
      }
      const body = await readAsset(env, paths.detail(target.resource, target.key));
      return body === null ? notFound : { ok: true, body };
    }
    case "requirements": {
      const body = await readAsset(env, paths.requirements(target.id));
      return body === null ? { ok: false, status: 404, message: `No qualification with the id '${target.id}'` } : { ok: true, body };
    }
    default:
      throw new Error(`serveGet cannot serve ${target.kind}`);
  }
}

export function assetBaseOf(url: URL, env: Env): string {
  return (env.ASSET_URL || `${url.origin}/assets`).replace(/\/+$/, "");
}

/** Where a prospectus document really is: the university's own copy, until mirrored copies exist. */
export async function prospectusDocumentUrl(env: Env, documentPath: string): Promise<string | null> {
  const documents = await readJsonAsset<Record<string, string>>(env, paths.prospectusDocuments());
  return documents?.[documentPath] ?? null;
}

/** The internal document for one university's APS scheme and qualifications, or null if there is none. */
export function readInternalJson<T>(env: Env, path: string): Promise<T | null> {
  return readJsonAsset<T>(env, path);
}
