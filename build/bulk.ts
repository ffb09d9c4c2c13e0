// The bulk files (schema/bulk.ts): every record of each resource in one NDJSON and one CSV file, and the data
// dictionary. Written under /_internal/bulk/; the Worker serves them at /v1/bulk/ after the scope check. A
// resource whose records the Worker finishes per request (prospectuses: their URL) gets its stored NDJSON only,
// from which the Worker makes both formats.
import { paths } from "../lib/layout.ts";
import { BULK_FILES, columnsOf, csvHeader, csvLine, type BulkFile } from "../schema/bulk.ts";
import { dataDictionary } from "../schema/dictionary.ts";
import { resourceNamed } from "../schema/resources.ts";
import type { EmittedFile } from "./emit.ts";
import type { Problem } from "./problems.ts";
import { recordText, type ResourceRecords } from "./records.ts";

/** Cloudflare's limit on one static asset. */
const MAX_ASSET_BYTES = 25 * 1024 * 1024;

/** The records of one bulk file, in the order of its list (and, for unnested ones, of each record's list). */
function recordsOf(file: BulkFile, byName: Map<string, ResourceRecords>): unknown[] {
  const resource = byName.get(file.resource);
  if (!resource) return [];
  if (file.name === "qualification-requirements") {
    return (resource.children?.byKey ?? []).flatMap(({ key, items }) => items.map((item) => ({ qualification_id: key, ...(item as object) })));
  }
  if (file.name === "nsc-results") {
    return (resource.detail?.records ?? []).flatMap(({ key, record }) => {
      const school = record as { emis_number: string; nsc_results: object[] };
      return school.nsc_results.map((result) => ({ high_school_id: key, emis_number: school.emis_number, ...result }));
    });
  }
  if (resource.detail) return resource.detail.records.map((r) => r.record);
  return resource.list?.items ?? resource.whole?.items ?? [];
}

/** The bulk files, made one at a time (a national one is tens of MiB: the build writes each before making the next). */
export function* bulkFiles(resources: ResourceRecords[]): Generator<EmittedFile> {
  const byName = new Map(resources.map((r) => [r.name, r]));
  for (const file of BULK_FILES) {
    const records = recordsOf(file, byName);
    yield { path: paths.bulk(file.name, "ndjson"), content: records.map((r) => `${recordText(r)}\n`).join("") };
    const finishedByWorker = file.name === file.resource && resourceNamed(file.resource).definition.served !== undefined;
    if (finishedByWorker) continue;
    const columns = columnsOf(file.record);
    yield { path: paths.bulk(file.name, "csv"), content: csvHeader(columns) + records.map((r) => csvLine(columns, r)).join("") };
  }
  yield { path: paths.bulk("dictionary", "json"), content: JSON.stringify({ data: dataDictionary() }) };
}

/** The problem of a bulk file past `maxAssetBytes` (Cloudflare's limit unless the caller measures beyond it: the bench), or null. */
export function bulkFileProblem(file: EmittedFile, maxAssetBytes = MAX_ASSET_BYTES): Problem | null {
  const bytes = Buffer.byteLength(file.content);
  if (bytes <= maxAssetBytes) return null;
  return {
    file: `dist:${file.path}`,
    line: 0,
    value: `${(bytes / 1024 / 1024).toFixed(1)} MiB`,
    expected: "a bulk file within Cloudflare's 25 MiB per asset (split the file by province, or drop its CSV)",
  };
}
