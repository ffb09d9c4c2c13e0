// The public documents (lib/public-documents.ts): the OpenAPI document and the reference page with its
// assets, answered without a token and readable from any origin, with an ETag and a public Cache-Control.
// The asset server's own strong ETag and 304 are passed on and the body is streamed, so even the renderer's
// 1.7 MB script is never read into the Worker. `/` leads to the reference page.
import { DOCS_CONTENT_SECURITY_POLICY } from "../lib/public-documents.ts";
import { fetchAsset, manifestOf } from "./assets.ts";
import type { Env } from "./env.ts";
import { settingsOf } from "./settings.ts";
import type { Target } from "./route.ts";

type DocumentTarget = Extract<Target, { kind: "public-document" | "redirect" }>;

export async function servePublicDocument(target: DocumentTarget, request: Request, env: Env): Promise<Response> {
  const cacheControl = `public, max-age=${settingsOf(env).cacheMaxAge}`;
  if (target.kind === "redirect")
    return new Response(null, { status: target.status, headers: { location: target.location, "cache-control": cacheControl } });
  const { document } = target;
  const ifNoneMatch = request.headers.get("if-none-match");
  const [asset, manifest] = await Promise.all([
    fetchAsset(env, document.file, ifNoneMatch === null ? {} : { "if-none-match": ifNoneMatch }),
    manifestOf(env),
  ]);
  if (asset.status !== 200 && asset.status !== 304) {
    await asset.body?.cancel();
    // Every build writes these files (build/public-documents.ts): a missing one is a broken deployment.
    throw new Error(`the public document ${document.file} answered ${asset.status}`);
  }
  const headers: Record<string, string> = {
    "content-type": document.contentType,
    "cache-control": cacheControl,
    "x-data-version": manifest.data_version,
    "x-content-type-options": "nosniff",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "ETag, X-Data-Version",
  };
  const etag = asset.headers.get("etag");
  if (etag !== null) headers.etag = etag;
  if (document.contentType.startsWith("text/html")) headers["content-security-policy"] = DOCS_CONTENT_SECURITY_POLICY;
  const body = asset.status === 304 || request.method === "HEAD" ? null : asset.body;
  if (body === null) await asset.body?.cancel();
  return new Response(body, { status: asset.status, headers });
}
