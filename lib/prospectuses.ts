// A prospectus record as served. dist/ stores the document's path; the URL depends on the deployment's
// asset base (ASSET_URL), so the Worker fills it in per request, and the OpenAPI document's examples do
// the same with the production base.

/** Everything the build stored passes through; only `document_path` becomes `url` (placed before provenance). */
export function servedProspectus(stored: { document_path: string } & Record<string, unknown>, assetBase: string): Record<string, unknown> {
  const { document_path, source_url, verified_on, ...fields } = stored;
  return { ...fields, url: `${assetBase}${document_path}`, source_url, verified_on };
}
