// Reading dist/ through the ASSETS binding, and the Worker's only cache of what it read.
//
// What may be kept across requests: plain parsed values (the manifest, parsed JSON documents). Never a
// Response, a body stream or a promise: on workerd a promise created by one request's I/O belongs to that
// request, and another request that awaits it can hang or fail ("Cannot perform I/O on behalf of a
// different request") when the first one ends. So two requests that both find the cache empty or stale
// each read for themselves, and whichever finishes stores the plain value.
import { MANIFEST_PATH, type Manifest } from "../lib/layout.ts";
import type { Env } from "./env.ts";

const ASSET_ORIGIN = "https://assets.internal";
/** The manifest changes only with a new build; re-reading it now and then lets `wrangler dev` pick up a rebuild. */
const MANIFEST_TTL_MS = 10_000;

type Cache = {
  manifest: { value: Manifest; readAt: number } | null;
  /** Parsed documents of the build the manifest names, by path. Emptied when the data version changes. */
  documents: Map<string, unknown>;
  dataVersion: string | null;
};

// One cache per ASSETS binding (one per deployment in production; tests may bring their own binding).
const caches = new WeakMap<object, Cache>();

function cacheOf(env: Env): Cache {
  let cache = caches.get(env.ASSETS);
  if (!cache) {
    cache = { manifest: null, documents: new Map(), dataVersion: null };
    caches.set(env.ASSETS, cache);
  }
  return cache;
}

export async function readAsset(env: Env, path: string): Promise<string | null> {
  const response = await env.ASSETS.fetch(new Request(`${ASSET_ORIGIN}${path}`));
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw new Error(`asset ${path} answered ${response.status}`);
  return response.text();
}

/** The asset's own response (status, ETag, streamed body), for a document passed on as it is. */
export function fetchAsset(env: Env, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return env.ASSETS.fetch(new Request(`${ASSET_ORIGIN}${path}`, { headers }));
}

export async function readJsonAsset<T>(env: Env, path: string): Promise<T | null> {
  const text = await readAsset(env, path);
  return text === null ? null : (JSON.parse(text) as T);
}

export async function manifestOf(env: Env, now = Date.now()): Promise<Manifest> {
  const cache = cacheOf(env);
  if (cache.manifest && now - cache.manifest.readAt <= MANIFEST_TTL_MS) return cache.manifest.value;
  const manifest = await readJsonAsset<Manifest>(env, MANIFEST_PATH);
  if (!manifest) throw new Error("dist/manifest.json is missing: run `npm run build`");
  cache.manifest = { value: manifest, readAt: now };
  if (cache.dataVersion !== manifest.data_version) {
    cache.documents.clear();
    cache.dataVersion = manifest.data_version;
  }
  return manifest;
}

/**
 * A JSON document of the current build, parsed once per isolate and data version (APS documents, search
 * indexes). Documents are immutable within a data version, so they need no expiry of their own.
 */
export async function cachedJsonAsset<T>(env: Env, manifest: Manifest, path: string): Promise<T | null> {
  const cache = cacheOf(env);
  if (cache.dataVersion === manifest.data_version && cache.documents.has(path)) return cache.documents.get(path) as T | null;
  const value = await readJsonAsset<T>(env, path);
  if (cache.dataVersion === manifest.data_version) cache.documents.set(path, value);
  return value;
}
