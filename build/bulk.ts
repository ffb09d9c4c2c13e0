// The bulk files (schema/bulk.ts): every record of each resource in one NDJSON and one CSV file, and the data
// dictionary. Written under /_internal/bulk/; the Worker serves them at /v1/bulk/ after the scope check. A
// resource whose records the Worker finishes per request (prospectuses: their URL) gets its stored NDJSON only,
// from which the Worker makes both formats.
import { paths } from "../lib/layout.ts";
import { BULK_FILES, columnsOf, csvHeader, csvLine, type BulkFile } from "../schema/bulk.ts";
import { dataDictionary } from "../schema/dictionary.ts";
import { resourceNamed } from "../schema/resources.ts";
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

/** A bulk file as the parts of its text, made as they are read (FileSink.putParts). */
export type BulkFileParts = { path: string; parts: Iterable<string> };

/** The bulk files, each made as it is written: a national one is tens of MiB, never held as one string. */
export function* bulkFiles(resources: ResourceRecords[]): Generator<BulkFileParts> {
  const byName = new Map(resources.map((r) => [r.name, r]));
  for (const file of BULK_FILES) {
    const records = recordsOf(file, byName);
    yield { path: paths.bulk(file.name, "ndjson"), parts: ndjsonParts(records) };
    const finishedByWorker = file.name === file.resource && resourceNamed(file.resource).definition.served !== undefined;
    if (finishedByWorker) continue;
    const columns = columnsOf(file.record);
    yield { path: paths.bulk(file.name, "csv"), parts: csvParts(columns, records) };
  }
  yield { path: paths.bulk("dictionary", "json"), parts: [JSON.stringify({ data: dataDictionary() })] };
}

function* ndjsonParts(records: unknown[]): Generator<string> {
  for (const record of records) {
    yield recordText(record);
    yield "\n";
  }
}

function* csvParts(columns: ReturnType<typeof columnsOf>, records: unknown[]): Generator<string> {
  yield csvHeader(columns);
  for (const record of records) yield csvLine(columns, record);
}

/** The problem of a bulk file of `bytes` past `maxAssetBytes` (Cloudflare's limit unless the caller measures beyond it: the bench), or null. */
export function bulkFileProblem(file: string, bytes: number, maxAssetBytes = MAX_ASSET_BYTES): Problem | null {
  if (bytes <= maxAssetBytes) return null;
  return {
    file: `dist:${file}`,
    line: 0,
    value: `${(bytes / 1024 / 1024).toFixed(1)} MiB`,
    expected: "a bulk file within Cloudflare's 25 MiB per asset (split the file by province, or drop its CSV)",
  };
}
