// The real local server: the Worker on workerd with its assets, on 127.0.0.1, run by Miniflare directly (the
// miniflare package wrangler itself runs on), on a socket straight to the Worker. wrangler's own local paths
// (`wrangler dev`, unstable_startWorker) put a ProxyWorker before the Worker, a second HTTP hop that capped even
// an instant 401 at about 400 req/s on the development machine and, under 16 connections, ran out of open
// files (issue 31); Miniflare's own entry socket still passes its entry worker and the assets router, which
// halved the throughput again (README, Benchmarks). Here functions/index.ts is bundled in memory with esbuild
// as wrangler bundles it (ESM, conditions workerd/worker/browser, es2024) behind LOCAL_ENTRY, and Miniflare is
// given what the wrangler config says: the compatibility date and flags, the assets (html_handling,
// not_found_handling; run_worker_first must be true, as the direct socket reaches the Worker first), the
// ratelimits bindings and the vars. No file watching, no live reload (npm run dev has those), no telemetry, no
// cf fetch. Two uses: the tests' and benches' server (startLocalServer: the test data set .test-dist/ and the
// test deployment's settings, test/worker/wrangler.jsonc, rate limits included, with a fresh signing key;
// `vars` replaces settings, e.g. CORS_ORIGINS), and `npm start`'s (startApiServer: dist/ and wrangler.jsonc,
// the local development key). startWorkerDirect is the same for any wrangler config (the benches' asset-only
// baseline, served by Miniflare's entry socket: assets only, no Worker).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build, stop as stopEsbuild } from "esbuild";
import { Log, LogLevel, Miniflare } from "miniflare";
import { parseJsonc } from "../lib/jsonc.ts";
import { newSigningKey, publicJwk, type SigningKey } from "./signing-keys.ts";
import { prepareTestDataset, ROOT } from "./test-dataset.ts";
import { signToken } from "./tokens.ts";

export type LocalServer = {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** A secret token, or with `origins` a publishable one for pages on those origins; valid for an hour. */
  token(scopes: string[], origins?: string[]): Promise<string>;
  stop(): Promise<void>;
};

/** The parts of a wrangler config (top level, no `env`) that the local server runs. */
type WranglerConfig = {
  main?: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  assets?: {
    directory: string;
    binding?: string;
    run_worker_first?: boolean;
    html_handling?: "auto-trailing-slash" | "force-trailing-slash" | "drop-trailing-slash" | "none";
    not_found_handling?: "single-page-application" | "404-page" | "none";
  };
  vars?: Record<string, unknown>;
  ratelimits?: { name: string; simple: { limit: number; period: 10 | 60 } }[];
};

/**
 * What Cloudflare's edge does in front of a Worker and workerd alone does not, for the direct socket (below): the
 * client's address in CF-Connecting-IP (always 127.0.0.1: the server listens on loopback only), and the
 * response compressed with gzip or brotli when the client accepts it and the type is one Cloudflare compresses
 * (the list miniflare's entry worker copies from Cloudflare's documentation; workerd compresses a body whose
 * response names a Content-Encoding). The Worker itself is functions/index.ts, unchanged, as its default export.
 */
const LOCAL_ENTRY = `
import { WorkerEntrypoint } from "cloudflare:workers";
import worker from "./functions/index.ts";
export default worker;
const COMPRESSED = new Set(${JSON.stringify([
  "text/html",
  "text/richtext",
  "text/plain",
  "text/css",
  "text/x-script",
  "text/x-component",
  "text/x-java-source",
  "text/x-markdown",
  "application/javascript",
  "application/x-javascript",
  "text/javascript",
  "text/js",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "application/x-perl",
  "application/x-httpd-cgi",
  "text/xml",
  "application/xml",
  "application/rss+xml",
  "application/vnd.api+json",
  "application/x-protobuf",
  "application/json",
  "multipart/bag",
  "multipart/mixed",
  "application/xhtml+xml",
  "font/ttf",
  "font/otf",
  "font/x-woff",
  "image/svg+xml",
  "application/vnd.ms-fontobject",
  "application/ttf",
  "application/x-ttf",
  "application/otf",
  "application/x-otf",
  "application/truetype",
  "application/opentype",
  "application/x-opentype",
  "application/font-woff",
  "application/eot",
  "application/font",
  "application/font-sfnt",
  "application/wasm",
  "application/javascript-binast",
  "application/manifest+json",
  "application/ld+json",
  "application/graphql+json",
  "application/geo+json",
])});
function encodingFor(accept) {
  for (const part of (accept ?? "").split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (params.some((p) => /^\\s*q\\s*=\\s*0(\\.0*)?\\s*$/.test(p))) continue;
    if (coding === "br" || coding === "gzip") return coding;
  }
  return undefined;
}
export class LocalEntry extends WorkerEntrypoint {
  async fetch(request) {
    const accept = request.headers.get("accept-encoding");
    if (!request.headers.has("cf-connecting-ip")) {
      request = new Request(request);
      request.headers.set("cf-connecting-ip", "127.0.0.1");
    }
    const response = await worker.fetch(request, this.env, this.ctx);
    const encoding = encodingFor(accept);
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim();
    if (!encoding || response.body === null || response.headers.has("content-encoding") || !COMPRESSED.has(type)) return response;
    const compressed = new Response(response.body, response);
    compressed.headers.set("content-encoding", encoding);
    return compressed;
  }
}
`;

/** The Worker's code as wrangler would deploy it (one ES module, bundled for workerd), with LOCAL_ENTRY. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    stdin: {
      contents: LOCAL_ENTRY.replace("./functions/index.ts", `./${path.relative(ROOT, entry)}`),
      resolveDir: ROOT,
      loader: "js",
      sourcefile: "local-entry.js",
    },
    bundle: true,
    write: false,
    format: "esm",
    target: "es2024",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:workers"],
    keepNames: true,
    define: { "process.env.NODE_ENV": '"development"' },
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced no output for ${entry}`);
  return output.text;
}

type DirectWorker = { base: string; stop(): Promise<void> };

/**
 * The Worker of the wrangler config `config` (an assets-only one too) on 127.0.0.1:`port` (0: a free one), with
 * `vars` replacing and adding to the config's (strings; objects in the config, such as RATE_LIMITS, are passed as
 * the JSON values wrangler passes). `inspectorPort`: workerd's V8 inspector on 127.0.0.1 at that port (Chrome
 * DevTools, or bench/isolate-heaps.ts), one target per isolate.
 */
export async function startWorkerDirect(
  config: string,
  port: number,
  vars: Record<string, string> = {},
  logLevel: "error" | "warn" = "error",
  inspectorPort?: number,
): Promise<DirectWorker> {
  const settings = parseJsonc(await readFile(config, "utf8")) as WranglerConfig;
  const dir = path.dirname(config);
  const script = settings.main ? await bundle(path.resolve(dir, settings.main)) : "export default {};";
  const assets = settings.assets;
  if (settings.main && assets && assets.run_worker_first !== true)
    throw new Error(`${config}: the local server reaches the Worker first, so it serves only configs with assets.run_worker_first: true`);
  const miniflare = new Miniflare({
    name: path.basename(config),
    modules: true,
    script,
    // Not read (script is given): names the module in stack traces.
    scriptPath: path.join(ROOT, ".wrangler", "direct", "index.js"),
    compatibilityDate: settings.compatibility_date,
    ...(settings.compatibility_flags ? { compatibilityFlags: settings.compatibility_flags } : {}),
    ...(assets
      ? {
          assets: {
            directory: path.resolve(dir, assets.directory),
            ...(assets.binding ? { binding: assets.binding } : {}),
            routerConfig: { has_user_worker: settings.main !== undefined, invoke_user_worker_ahead_of_assets: assets.run_worker_first === true },
            assetConfig: {
              ...(assets.html_handling ? { html_handling: assets.html_handling } : {}),
              ...(assets.not_found_handling ? { not_found_handling: assets.not_found_handling } : {}),
            },
          },
        }
      : {}),
    ratelimits: Object.fromEntries((settings.ratelimits ?? []).map((r) => [r.name, { simple: { limit: r.simple.limit, period: r.simple.period } }])),
    bindings: { ...(settings.vars ?? {}), ...vars } as Record<string, string>,
    host: "127.0.0.1",
    // Miniflare's own entry socket (its entry worker, then the assets router, then the Worker: two more
    // hops per request that halved the throughput) on a free port, unused; the Worker's LocalEntry on `port`.
    port: settings.main ? 0 : port,
    ...(settings.main ? { unsafeDirectSockets: [{ host: "127.0.0.1", port, entrypoint: "LocalEntry" }] } : {}),
    logRequests: false,
    ...(inspectorPort ? { inspectorPort } : {}),
    // The placeholder request.cf, not one fetched from Cloudflare: the server runs offline.
    cf: false,
    log: new Log(logLevel === "warn" ? LogLevel.WARN : LogLevel.ERROR),
  });
  const entry = await miniflare.ready;
  const url = settings.main ? await miniflare.unsafeGetDirectURL(undefined, "LocalEntry") : entry;
  return { base: url.origin, stop: () => miniflare.dispose() };
}

/** The Worker of `config` on 127.0.0.1:`port` (0: a free one), trusting `key`, with `vars` replacing settings. */
async function startWorker(
  config: string,
  port: number,
  key: SigningKey,
  vars: Record<string, string>,
  logLevel: "error" | "warn",
  inspectorPort?: number,
): Promise<LocalServer> {
  const worker = await startWorkerDirect(config, port, { ...vars, TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }) }, logLevel, inspectorPort);
  return {
    base: worker.base,
    token: (scopes, origins) => signToken({ scopes, env: "test", expiresInSeconds: 3600, sub: key.kid, ...(origins ? { origins } : {}) }, key),
    stop: worker.stop,
  };
}

export async function startLocalServer(name: string, vars: Record<string, string> = {}): Promise<LocalServer> {
  await prepareTestDataset();
  return startWorker(path.join(ROOT, "test/worker/wrangler.jsonc"), 0, await newSigningKey(name), vars, "error");
}

/**
 * `npm start`'s server: dist/ as wrangler.jsonc names it, its settings, and the local development key. The
 * process bundles nothing more, so esbuild's service process (about 50 MiB) is stopped once the Worker runs.
 */
export async function startApiServer(port: number, key: SigningKey, inspectorPort?: number): Promise<LocalServer> {
  const server = await startWorker(path.join(ROOT, "wrangler.jsonc"), port, key, {}, "warn", inspectorPort);
  await stopEsbuild();
  return server;
}
