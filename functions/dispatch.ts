// Dispatch: a matched route's target to its one handler. The table is exhaustive by type (`satisfies
// Handlers`): a target kind added to schema/operation.ts without its handler here fails tsc, not a request.
import type { Manifest } from "../lib/layout.ts";
import type { Principal } from "./authenticate.ts";
import { serveBulk, serveDictionary } from "./bulk.ts";
import { serveChanges, serveMeta, serveReleases } from "./sync.ts";
import { answerApsCalculator, answerApsCompare, answerApsTargets } from "./aps.ts";
import { manifestOf } from "./assets.ts";
import { answerIdParse, readJsonBody } from "./compute.ts";
import { servePublicDocument } from "./documents.ts";
import type { Env } from "./env.ts";
import { settingsOf } from "./settings.ts";
import { ApiError } from "./errors.ts";
import { JSON_CONTENT_TYPE } from "./respond.ts";
import type { Target } from "./route.ts";
import { prospectusDocumentUrl, serveDetail, serveList, serveRequirements, serveWhole } from "./serve.ts";

/**
 * What every handler may read about the request it answers; `principal`: its accepted token (null on a public
 * route); `manifest`: the build's manifest, read at most once per request (manifestReader).
 */
export type Context = { request: Request; url: URL; env: Env; principal: Principal | null; manifest: () => Promise<Manifest> };

/** The target kinds whose handlers read the manifest (document() and the bulk files). */
const READS_MANIFEST: ReadonlySet<Target["kind"]> = new Set(["list", "whole", "detail", "requirements", "meta", "releases", "changes", "bulk"]);

/**
 * The request's manifest reader. For a target that reads the manifest the read starts at once, so it runs while
 * the token is verified and counted instead of after them: on a fresh isolate the first asset read is the
 * slowest step of a plain page (the asset worker's own first request), and the token check's first run the
 * next (issue 31). The promise belongs to this request alone (functions/assets.ts keeps only plain values
 * across requests); a request refused before it is used leaves it unawaited, its failure ignored.
 */
export function manifestReader(env: Env, target: Target | null): () => Promise<Manifest> {
  let read: Promise<Manifest> | null = null;
  const manifest = () => {
    read ??= manifestOf(env);
    return read;
  };
  if (target && READS_MANIFEST.has(target.kind)) manifest().catch(() => {});
  return manifest;
}

/** The token of a request on a route that needs one (every route but the public ones has it). */
function principalOf(context: Context): Principal {
  if (!context.principal) throw new Error("a route that needs a token was dispatched without one");
  return context.principal;
}

/** One handler per target kind, each taking its own kind of target. */
export type Handlers = { [K in Target["kind"]]: (target: Extract<Target, { kind: K }>, context: Context) => Promise<Response> };

/** A GET of data from dist/: the body `serve` makes from the manifest, answered with its validators. */
async function document({ request, env, manifest: read }: Context, serve: (manifest: Manifest) => Promise<string>): Promise<Response> {
  const manifest = await read();
  return respondWithDocument(request, await serve(manifest), manifest, env);
}

/**
 * The handler of each target kind (schema/operation.ts). `satisfies Handlers` makes the table exhaustive:
 * a target kind without its handler fails tsc (test/node/dispatch-types.test.ts), never a request.
 */
const HANDLERS = {
  list: (target, c) => document(c, (manifest) => serveList(target.resource, c.url, c.env, manifest)),
  whole: (target, c) => document(c, () => serveWhole(target.resource, c.url, c.env)),
  detail: (target, c) => document(c, (manifest) => serveDetail(target.resource, target.key, c.env, manifest)),
  requirements: (target, c) => document(c, () => serveRequirements(target.id, c.env)),
  meta: (_target, c) => document(c, () => serveMeta(c.url, c.env)),
  releases: (_target, c) => document(c, (manifest) => serveReleases(c.url, c.env, manifest)),
  changes: (_target, c) => document(c, (manifest) => serveChanges(c.url, c.env, manifest, principalOf(c))),
  bulk: async (target, c) =>
    target.file === "dictionary.json"
      ? document(c, () => serveDictionary(c.url, c.env))
      : serveBulk(target.file, c.request, c.url, c.env, await c.manifest(), principalOf(c)),
  "id-parse": async (_target, { request }) => answerIdParse(await readJsonBody(request), new Date()),
  aps: async (_target, { request, env }) => answerApsCalculator(await readJsonBody(request), env),
  "aps-compare": async (_target, { request, env }) => answerApsCompare(await readJsonBody(request), env),
  "aps-targets": async (_target, { request, env }) => answerApsTargets(await readJsonBody(request), env),
  // The OpenAPI document and the reference page (functions/documents.ts).
  "public-document": (target, { request, env }) => servePublicDocument(target, request, env),
  redirect: (target, { request, env }) => servePublicDocument(target, request, env),
  "prospectus-document": async (target, { env }) => {
    const location = await prospectusDocumentUrl(env, target.path);
    if (location === null) throw new ApiError("not_found", `No prospectus at ${target.path}`);
    // No mirrored copy yet: send the browser to the university's own document.
    return new Response(null, { status: 302, headers: { location, "cache-control": "public, max-age=3600" } });
  },
} satisfies Handlers;

export function dispatch(target: Target, context: Context): Promise<Response> {
  // One handler per kind (HANDLERS); the cast only pairs a target with its own kind's handler.
  const handler = HANDLERS[target.kind] as (target: Target, context: Context) => Promise<Response>;
  return handler(target, context);
}

/** A GET's JSON body with its validators: a strong ETag, 304 on a match, the data version and cache policy. */
async function respondWithDocument(request: Request, body: string, manifest: Manifest, env: Env): Promise<Response> {
  const etag = `"${await digest(body)}"`;
  const headers = {
    "content-type": JSON_CONTENT_TYPE,
    etag,
    "cache-control": `private, max-age=${settingsOf(env).cacheMaxAge}`,
    "x-data-version": manifest.data_version,
    vary: "Authorization",
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}
