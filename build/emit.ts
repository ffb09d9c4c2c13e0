// Stage 4, emit: every record checked against its API schema, then laid out as files the Worker serves
// by slicing at most two list chunks or picking one record out of a file. Output is byte-identical for
// the same sources: records arrive sorted, JSON has a fixed key order, and nothing depends on the clock.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { LIST_CHUNK_SIZE } from "../lib/pagination.ts";
import { bucketCountFor, bucketOf } from "../lib/buckets.ts";
import { bucketText, chunkText } from "../lib/sliced.ts";
import { MANIFEST_PATH, paths, type Manifest, type ResourceManifest } from "../lib/layout.ts";
import type { z } from "zod";
import { publishedRecords, recordText, type ResourceRecords } from "./records.ts";
import type { Problem } from "./problems.ts";

export type EmitOptions = {
  /** Collections with more detail records than this are stored in buckets instead of one file each. */
  bucketThreshold: number;
  /** Target number of records per bucket. */
  recordsPerBucket: number;
};

export type EmittedFile = { path: string; content: string };

export type Emission = { files: EmittedFile[]; manifest: Manifest; problems: Problem[] };

/** `extra`: manifest entries written by other parts of the emit stage (the find indexes' sizes). */
export function layoutFiles(
  resources: ResourceRecords[],
  internal: EmittedFile[],
  options: EmitOptions,
  extra: Pick<Manifest, "find"> = {},
): Emission {
  const files: EmittedFile[] = [];
  const problems: Problem[] = [];
  const manifestResources: Record<string, ResourceManifest> = {};
  const json = (value: unknown) => JSON.stringify(value);

  const checked = (resource: string, part: string, schema: z.ZodType, items: unknown[]) => {
    items.forEach((item, index) => {
      const result = schema.safeParse(item);
      if (!result.success) {
        for (const issue of result.error.issues) {
          problems.push({
            file: `dist:${resource}`,
            line: index + 1,
            column: `${part}.${issue.path.join(".")}`,
            value: JSON.stringify(item).slice(0, 200),
            expected: `a response record matching the ${resource} ${part} schema (${issue.message})`,
          });
        }
      }
    });
  };

  for (const resource of resources) {
    files.push({ path: paths.recordDigests(resource.name), content: json(recordDigests(resource)) });
    const entry: ResourceManifest = { total: 0 };
    if (resource.list) {
      checked(resource.name, "list", resource.list.schema, resource.list.items);
      const items = resource.list.items;
      const chunks = Math.ceil(items.length / LIST_CHUNK_SIZE);
      for (let k = 0; k < chunks; k++) {
        files.push({ path: paths.listChunk(resource.name, k), content: chunkText(items.slice(k * LIST_CHUNK_SIZE, (k + 1) * LIST_CHUNK_SIZE)) });
      }
      entry.total = items.length;
      entry.list = { chunk_size: LIST_CHUNK_SIZE, chunks };
    }
    if (resource.whole) {
      checked(resource.name, "list", resource.whole.schema, resource.whole.items);
      entry.total = resource.whole.items.length;
      files.push({ path: paths.wholeList(resource.name), content: json({ data: resource.whole.items, meta: { total: entry.total } }) });
    }
    if (resource.detail) {
      const records = resource.detail.records;
      checked(
        resource.name,
        "detail",
        resource.detail.schema,
        records.map((r) => r.record),
      );
      if (records.length > options.bucketThreshold) {
        const count = bucketCountFor(records.length, options.recordsPerBucket);
        const buckets: [string, unknown][][] = Array.from({ length: count }, () => []);
        for (const { key, record } of records) buckets[bucketOf(key, count)]?.push([key, record]);
        buckets.forEach((bucket, b) => {
          files.push({ path: paths.bucket(resource.name, b), content: bucketText(bucket, recordText) });
        });
        entry.detail = { kind: "buckets", count };
      } else {
        for (const { key, record } of records) files.push({ path: paths.detail(resource.name, key), content: `{"data":${recordText(record)}}` });
        entry.detail = { kind: "files" };
      }
      if (!resource.list) entry.total = records.length;
    }
    if (resource.children) {
      for (const { key, items } of resource.children.byKey) {
        checked(resource.name, "requirements", resource.children.schema, items);
        files.push({ path: paths.requirements(key), content: json({ data: items }) });
      }
    }
    manifestResources[resource.name] = entry;
  }
  files.push(...internal);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const hash = createHash("sha256");
  let bytes = 0;
  for (const file of files) {
    hash.update(file.path).update("\u0000").update(file.content).update("\u0000");
    bytes += Buffer.byteLength(file.content);
  }
  // `files` counts the manifest itself; `bytes` is the size of the data files.
  const manifest: Manifest = {
    data_version: hash.digest("hex").slice(0, 16),
    resources: manifestResources,
    files: files.length + 1,
    bytes,
    ...extra,
  };
  files.push({ path: MANIFEST_PATH, content: json(manifest) });
  return { files, manifest, problems };
}

/**
 * Adds files that are not data (the release history, /v1/meta, the bulk files: all derived from the records or
 * about them) after the data version was taken, and counts them in the manifest.
 */
export function withFiles(emission: Emission, extra: EmittedFile[]): Emission {
  const manifest: Manifest = { ...emission.manifest, files: emission.manifest.files + extra.length };
  const files = [...emission.files.filter((f) => f.path !== MANIFEST_PATH), ...extra, { path: MANIFEST_PATH, content: JSON.stringify(manifest) }];
  return { ...emission, files, manifest };
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * Key -> digest of everything published about the record (build/records.ts publishedRecords): a detail record's
 * text as the emit stage wrote it, with its requirements; a list item's for a resource without detail records.
 */
function recordDigests(resource: ResourceRecords): Record<string, string> {
  const digests: Record<string, string> = {};
  if (resource.detail) {
    const children = new Map((resource.children?.byKey ?? []).map(({ key, items }) => [key, JSON.stringify(items)]));
    for (const { key, record } of resource.detail.records) digests[key] = digest(recordText(record) + (children.get(key) ?? ""));
    return digests;
  }
  for (const { key, fields } of publishedRecords(resource)) digests[key] = digest(JSON.stringify(fields));
  return digests;
}

/** Writes the files under `folder` (which must be new and empty), a few at a time. */
export async function writeFiles(folder: string, files: EmittedFile[]): Promise<void> {
  const directories = new Set(files.map((f) => path.dirname(path.join(folder, f.path))));
  for (const directory of [...directories].sort()) await mkdir(directory, { recursive: true });
  const queue = [...files];
  const writers = Array.from({ length: 16 }, async () => {
    for (let file = queue.pop(); file; file = queue.pop()) await writeFile(path.join(folder, file.path), file.content);
  });
  await Promise.all(writers);
}
