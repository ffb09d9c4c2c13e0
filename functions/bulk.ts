// GET /v1/bulk/<file>: a bulk file of the live release, passed on from dist/ as it is (streamed, with the asset's
// ETag), after the file's own scope check; and the data dictionary. A resource whose records are finished per
// request (prospectuses: their URL) is made here from its stored NDJSON, in either format.
import { paths, type Manifest } from "../lib/layout.ts";
import { bulkFileName, bulkFileNamed, columnsOf, csvHeader, csvLine, type BulkFormat } from "../schema/bulk.ts";
import type { ReleaseIndex } from "../schema/releases.ts";
import { resourceNamed } from "../schema/resources.ts";
import { cachedJsonAsset, fetchAsset, readAsset } from "./assets.ts";
import { authorise, type Principal } from "./authenticate.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { parseQuery } from "./query.ts";
import { assetBaseOf } from "./serve.ts";
import { settingsOf } from "./settings.ts";

const MEDIA: Record<BulkFormat, string> = { csv: "text/csv; charset=utf-8; header=present", ndjson: "application/x-ndjson; charset=utf-8" };

export async function serveBulk(file: string, request: Request, url: URL, env: Env, manifest: Manifest, principal: Principal): Promise<Response> {
  parseQuery({}, `/v1/bulk/${file}`, url.searchParams);
  const [name = "", format] = file.split(".") as [string, BulkFormat];
  const bulk = bulkFileNamed(name);
  if (!bulk) throw new ApiError("not_found", `No bulk file ${file}`);
  authorise(principal, bulk.scope);
  const index = await cachedJsonAsset<ReleaseIndex>(env, manifest, paths.releases());
  const release = index?.live ?? `unreleased-${manifest.data_version}`;
  const headers: Record<string, string> = {
    "content-type": MEDIA[format],
    "content-disposition": `attachment; filename="${bulkFileName(name, release, format)}"`,
    "cache-control": `private, max-age=${settingsOf(env).cacheMaxAge}`,
    "x-data-version": manifest.data_version,
    vary: "Authorization",
  };
  const served = bulk.resource === name ? resourceNamed(bulk.resource).definition.served : undefined;
  if (served) {
    const stored = await readAsset(env, paths.bulk(name, "ndjson"));
    if (stored === null) throw new Error(`dist/ has no bulk file ${name}`);
    const records = stored
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => served(JSON.parse(line) as Record<string, unknown>, () => assetBaseOf(url, env)));
    const columns = columnsOf(bulk.record);
    const body =
      format === "ndjson"
        ? records.map((r) => `${JSON.stringify(r)}\n`).join("")
        : csvHeader(columns) + records.map((r) => csvLine(columns, r)).join("");
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
  }
  const conditional = request.headers.get("if-none-match");
  const asset = await fetchAsset(env, paths.bulk(name, format), conditional ? { "if-none-match": conditional } : {});
  const etag = asset.headers.get("etag");
  if (etag) headers.etag = etag;
  if (asset.status === 304) return new Response(null, { status: 304, headers });
  if (!asset.ok) {
    await asset.body?.cancel();
    throw new Error(`bulk file ${file} answered ${asset.status}`);
  }
  if (request.method === "HEAD") {
    await asset.body?.cancel();
    return new Response(null, { status: 200, headers });
  }
  return new Response(asset.body, { status: 200, headers });
}

/** The data dictionary (schema/dictionary.ts), as the build wrote it. */
export async function serveDictionary(url: URL, env: Env): Promise<string> {
  parseQuery({}, "/v1/bulk/dictionary.json", url.searchParams);
  const body = await readAsset(env, paths.bulk("dictionary", "json"));
  if (body === null) throw new Error("dist/ has no data dictionary: run `npm run build`");
  return body;
}
