// Stage 4, emit: every record checked against its API schema, then laid out as files the Worker serves
// by slicing at most two list chunks or picking one record out of a file. Output is byte-identical for
// the same sources: records arrive sorted, JSON has a fixed key order, and nothing depends on the clock.
import { createHash } from "node:crypto";
import { sha256Hex } from "./ids.ts";
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

/**
 * Where the emit stage's files go as they are made, so a build holds no more than the file it is making (the
 * build's sink writes each into the staging folder: build/publish.ts StagingFolder). It remembers every path and
 * the bytes put, and reads a file back when the data version or the documents' examples need its text.
 */
export interface FileSink {
  /** Takes a file; the caller keeps nothing of it. Putting a path again replaces the file (the manifest). */
  put(file: EmittedFile): void;
  /** Takes a file as the parts of its text, in order (a bulk file: never one string); returns its size in bytes. */
  putParts(path: string, parts: Iterable<string>): number;
  /** The text of a file put before, or undefined when none was put at that path. */
  read(path: string): string | undefined;
  /** The bytes of a file put before, for hashing (the buffer written or read back; the text, in memory). */
  bytes(path: string): string | Buffer;
  /** Every path put, in the order first put. */
  readonly paths: readonly string[];
  /** The UTF-8 size of every file put, the last version of each. */
  readonly byteCount: number;
}

/** A sink that keeps the files in memory: tests, and layoutFiles when given none. */
class MemorySink implements FileSink {
  readonly files = new Map<string, string>();
  byteCount = 0;
  get paths(): string[] {
    return [...this.files.keys()];
  }
  put(file: EmittedFile): void {
    const before = this.files.get(file.path);
    if (before !== undefined) this.byteCount -= Buffer.byteLength(before);
    this.files.set(file.path, file.content);
    this.byteCount += Buffer.byteLength(file.content);
  }
  putParts(path: string, parts: Iterable<string>): number {
    let content = "";
    for (const part of parts) content += part;
    this.put({ path, content });
    return Buffer.byteLength(content);
  }
  read(path: string): string | undefined {
    return this.files.get(path);
  }
  bytes(path: string): string {
    const text = this.files.get(path);
    if (text === undefined) throw new Error(`no file ${path} was emitted`);
    return text;
  }
}

/** `files`: the files, when they were laid out in memory (no sink given); `paths`: every data file's path, sorted. */
export type Emission = { files: EmittedFile[]; paths: string[]; manifest: Manifest; problems: Problem[] };

/**
 * `extra`: manifest entries written by other parts of the emit stage (the find indexes' sizes). `internal`: files
 * laid out with the data (put first). Every file in `sink` when this is called counts as data too (the build puts
 * the find indexes there as they are made): the data version and the manifest's `files` and `bytes` cover them all.
 */
export function layoutFiles(
  resources: ResourceRecords[],
  internal: EmittedFile[],
  options: EmitOptions,
  extra: Pick<Manifest, "find"> = {},
  sink: FileSink = new MemorySink(),
): Emission {
  for (const file of internal) sink.put(file);
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
    // Each record's requirements as JSON, made once for its digest and its file.
    const childTexts = new Map((resource.children?.byKey ?? []).map(({ key, items }) => [key, JSON.stringify(items)]));
    sink.put({ path: paths.recordDigests(resource.name), content: json(recordDigests(resource, childTexts)) });
    const entry: ResourceManifest = { total: 0 };
    if (resource.list) {
      // A list checked already (records.ts listItems: parsed, or picked from the detail records checked below) is not checked again.
      if (!resource.list.parsed) checked(resource.name, "list", resource.list.schema, resource.list.items);
      const items = resource.list.items;
      const chunks = Math.ceil(items.length / LIST_CHUNK_SIZE);
      for (let k = 0; k < chunks; k++) {
        sink.put({ path: paths.listChunk(resource.name, k), content: chunkText(items.slice(k * LIST_CHUNK_SIZE, (k + 1) * LIST_CHUNK_SIZE)) });
      }
      entry.total = items.length;
      entry.list = { chunk_size: LIST_CHUNK_SIZE, chunks };
    }
    if (resource.whole) {
      checked(resource.name, "list", resource.whole.schema, resource.whole.items);
      entry.total = resource.whole.items.length;
      sink.put({ path: paths.wholeList(resource.name), content: json({ data: resource.whole.items, meta: { total: entry.total } }) });
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
          sink.put({ path: paths.bucket(resource.name, b), content: bucketText(bucket, recordText) });
        });
        entry.detail = { kind: "buckets", count };
      } else {
        for (const { key, record } of records) sink.put({ path: paths.detail(resource.name, key), content: `{"data":${recordText(record)}}` });
        entry.detail = { kind: "files" };
      }
      if (!resource.list) entry.total = records.length;
    }
    if (resource.children) {
      for (const { key, items } of resource.children.byKey) {
        checked(resource.name, "requirements", resource.children.schema, items);
        sink.put({ path: paths.requirements(key), content: `{"data":${childTexts.get(key)}}` });
      }
    }
    manifestResources[resource.name] = entry;
  }
  const dataPaths = [...sink.paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash("sha256");
  for (const file of dataPaths) hash.update(file).update("\u0000").update(sink.bytes(file)).update("\u0000");
  // `files` counts the manifest itself; `bytes` is the size of the data files.
  const manifest: Manifest = {
    data_version: hash.digest("hex").slice(0, 16),
    resources: manifestResources,
    files: dataPaths.length + 1,
    bytes: sink.byteCount,
    ...extra,
  };
  sink.put({ path: MANIFEST_PATH, content: json(manifest) });
  const files = sink instanceof MemorySink ? dataPaths.map((p) => ({ path: p, content: sink.bytes(p) })) : [];
  if (sink instanceof MemorySink) files.push({ path: MANIFEST_PATH, content: json(manifest) });
  return { files, paths: dataPaths, manifest, problems };
}

/**
 * Adds files that are not data (the release history, /v1/meta, the bulk files: all derived from the records or
 * about them) after the data version was taken, and counts them, with any put into the sink since, in the manifest.
 */
export function withFiles(manifest: Manifest, extra: Iterable<EmittedFile>, sink: FileSink): Manifest {
  for (const file of extra) sink.put(file);
  // Every file put so far: the data files, the manifest, and the files put since the data version was taken.
  const counted: Manifest = { ...manifest, files: sink.paths.length };
  sink.put({ path: MANIFEST_PATH, content: JSON.stringify(counted) });
  return counted;
}

const digest = (text: string) => sha256Hex(text).slice(0, 16);

/**
 * Key -> digest of everything published about the record (build/records.ts publishedRecords): a detail record's
 * text as the emit stage wrote it, with its requirements; a list item's for a resource without detail records.
 */
function recordDigests(resource: ResourceRecords, children: Map<string, string>): Record<string, string> {
  const digests: Record<string, string> = {};
  if (resource.detail) {
    for (const { key, record } of resource.detail.records) digests[key] = digest(recordText(record) + (children.get(key) ?? ""));
    return digests;
  }
  for (const { key, fields } of publishedRecords(resource)) digests[key] = digest(JSON.stringify(fields));
  return digests;
}
