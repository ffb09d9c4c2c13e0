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
  /** Texts of list chunks and detail buckets, least recently used first, within TEXT_BUDGET characters. */
  texts: Map<string, string>;
  textChars: number;
};

/**
 * How much chunk and bucket text an isolate keeps (UTF-16 code units, so about twice that in bytes at most):
 * every bucket and chunk of the national schools and postal codes is about 12 M characters; a Worker has 128 MB.
 * Past the budget the least recently used texts are dropped.
 */
const TEXT_BUDGET = 8 * 1024 * 1024;

// One cache per ASSETS binding (one per deployment in production; tests may bring their own binding).
const caches = new WeakMap<object, Cache>();

function cacheOf(env: Env): Cache {
  let cache = caches.get(env.ASSETS);
  if (!cache) {
    cache = { manifest: null, documents: new Map(), dataVersion: null, texts: new Map(), textChars: 0 };
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
    cache.texts.clear();
    cache.textChars = 0;
    cache.dataVersion = manifest.data_version;
  }
  return manifest;
}

/**
 * A JSON document of the current build, parsed once per isolate and data version (APS documents, search
 * indexes). Documents are immutable within a data version, so they need no expiry of their own. Only documents
 * that exist are kept, so the cache holds at most the build's own files: some paths are named by requests (a
 * qualification id or a university slug of an APS body), and keeping each unknown one's miss grew the isolate's
 * memory with every distinct key a client sent (issue 31).
 */
export async function cachedJsonAsset<T>(env: Env, manifest: Manifest, path: string): Promise<T | null> {
  const cache = cacheOf(env);
  if (cache.dataVersion === manifest.data_version && cache.documents.has(path)) return cache.documents.get(path) as T;
  const value = await readJsonAsset<T>(env, path);
  if (value !== null && cache.dataVersion === manifest.data_version) cache.documents.set(path, value);
  return value;
}

/** How many entries the isolate's cache of `env`'s assets holds (tests and benches: it stays bounded). */
export function cachedEntries(env: Env): { documents: number; texts: number; textChars: number } {
  const cache = cacheOf(env);
  return { documents: cache.documents.size, texts: cache.texts.size, textChars: cache.textChars };
}

/**
 * A text file of the current build (a list chunk, a detail bucket), kept per isolate and data version in a
 * least-recently-used cache bounded by TEXT_BUDGET: a hot bucket is served with no asset read and no parse
 * (lib/sliced.ts cuts the record out of the text). A plain string, so any request may use it.
 */
export async function cachedTextAsset(env: Env, manifest: Manifest, path: string): Promise<string | null> {
  const cache = cacheOf(env);
  const current = cache.dataVersion === manifest.data_version;
  const kept = current ? cache.texts.get(path) : undefined;
  if (kept !== undefined) {
    cache.texts.delete(path);
    cache.texts.set(path, kept);
    return kept;
  }
  const text = await readAsset(env, path);
  if (text === null || !current || cache.dataVersion !== manifest.data_version || text.length > TEXT_BUDGET) return text;
  if (!cache.texts.has(path)) {
    cache.texts.set(path, text);
    cache.textChars += text.length;
  }
  for (const [oldest, value] of cache.texts) {
    if (cache.textChars <= TEXT_BUDGET) break;
    cache.texts.delete(oldest);
    cache.textChars -= value.length;
  }
  return text;
}
