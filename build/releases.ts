// Releases, the build's side: what changed since the latest recorded release, record by record and field by
// field, and the files the Worker answers /v1/releases and /v1/changes from. Pure: the history is read and
// written by release-history.ts. A release is recorded only for data that was published: the build computes
// it here, writes it into the staged dist/, and the caller records it in sources/releases/ after the swap.
import { addDays, todayInJohannesburg } from "../lib/dates.ts";
import { fnv1a32 } from "../lib/buckets.ts";
import { paths } from "../lib/layout.ts";
import {
  compareReleaseIds,
  RELEASE_ID,
  releaseDay,
  RETENTION_DAYS,
  type Release,
  type ReleaseFile,
  type ReleaseIndex,
  type StoredChange,
} from "../schema/releases.ts";
import type { EmittedFile } from "./emit.ts";
import { publishedRecords, type ResourceRecords } from "./records.ts";

/**
 * Per resource: its top-level field names, and per record key a short digest of each field's value, aligned with
 * the names and joined into one string (FIELD_DIGEST_LENGTH characters each, as the fingerprint files store them:
 * one string a record rather than an array of short strings, a quarter of the memory at national scale).
 */
export type Fingerprints = Record<string, { fields: string[]; records: Map<string, string> }>;

/** Hex digits kept per field digest: a changed value goes unnoticed with odds of 1 in 16^6 (about 17 million). */
const FIELD_DIGEST_LENGTH = 6;
/** A field the record does not have. */
const ABSENT = "-".repeat(FIELD_DIGEST_LENGTH);

/** A field digest: the top 24 bits of an FNV-1a hash, in hex. */
const digestHex = (hash: number) => (hash >>> 8).toString(16).padStart(FIELD_DIGEST_LENGTH, "0");

/** The top 24 bits of FNV-1a over the value's JSON: a digest per field of ~32,000 records must be cheap (a SHA-256
 * each took a tenth of the build); it only has to notice a change, not resist one made on purpose. */
const fieldDigest = (value: unknown) => digestHex(jsonHash(value));

/** A text JSON.stringify writes as it is between two quotes: no quote, backslash, control character or surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;
const QUOTE = 34;

/**
 * FNV-1a (lib/buckets.ts fnv1a32) over JSON.stringify(value), without making that text where it is a plain text or
 * a number (most fields of most records): a JSON string per field of every record was most of the fingerprints'
 * time and garbage. A text with anything JSON escapes, and lists and objects, are stringified.
 */
export function jsonHash(value: unknown): number {
  if (typeof value === "string" && !ESCAPED_IN_JSON.test(value)) {
    let hash = Math.imul(0x811c9dc5 ^ QUOTE, 0x01000193);
    for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
    return Math.imul(hash ^ QUOTE, 0x01000193) >>> 0;
  }
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean" || value === null) return fnv1a32(String(value));
  return fnv1a32(JSON.stringify(value) ?? "undefined");
}

export function fingerprintsOf(resources: ResourceRecords[]): Fingerprints {
  const fingerprints: Fingerprints = {};
  for (const resource of resources) {
    const records = publishedRecords(resource);
    const fields: string[] = [];
    const seen = new Set<string>();
    for (const { fields: record } of records) {
      for (const name of Object.keys(record)) {
        if (!seen.has(name)) {
          seen.add(name);
          fields.push(name);
        }
      }
    }
    const digests = new Map<string, string>();
    // join(), not +=: a string built by += is a rope of one node per field, three times the memory of the flat string.
    for (const { key, fields: record } of records)
      digests.set(key, fields.map((name) => (name in record ? fieldDigest(record[name]) : ABSENT)).join(""));
    fingerprints[resource.name] = { fields, records: digests };
  }
  return fingerprints;
}

export type ReleasePlan = {
  fingerprints: Fingerprints;
  /** Against the latest release; sorted by resource, then key. */
  changes: StoredChange[];
  counts: Release["resources"];
  /** There is a latest release and this build's records are exactly its records. */
  unchanged: boolean;
};

/** Compares this build's fingerprints with the latest release's (null: there is no release yet). */
export function planRelease(current: Fingerprints, previous: Fingerprints | null): ReleasePlan {
  const changes: StoredChange[] = [];
  const counts: Release["resources"] = {};
  const names = [...new Set([...Object.keys(current), ...Object.keys(previous ?? {})])].sort();
  for (const resource of names) {
    const now = current[resource] ?? { fields: [], records: new Map<string, string>() };
    const before = previous?.[resource];
    const tally = { total: now.records.size, added: 0, removed: 0, changed: 0 };
    counts[resource] = tally;
    if (!previous) continue;
    const beforeRecords = before?.records ?? new Map<string, string>();
    const sameFields = before !== undefined && before.fields.length === now.fields.length && before.fields.every((name, i) => now.fields[i] === name);
    const digestOf = (joined: string, at: number) => joined.slice(at * FIELD_DIGEST_LENGTH, (at + 1) * FIELD_DIGEST_LENGTH);
    const beforeIndex = new Map((before?.fields ?? []).map((name, i) => [name, i]));
    const own: StoredChange[] = [];
    for (const [key, digests] of now.records) {
      const old = beforeRecords.get(key);
      if (old === undefined) {
        own.push({ resource, key, change: "added", fields: [] });
        continue;
      }
      if (old === digests && sameFields) continue;
      const fields = now.fields.filter((name, i) => {
        const at = beforeIndex.get(name);
        return (at === undefined ? ABSENT : digestOf(old, at)) !== digestOf(digests, i);
      });
      // A field the release had that this build no longer writes at all.
      for (const [name, at] of beforeIndex) if (!now.fields.includes(name) && digestOf(old, at) !== ABSENT) fields.push(name);
      if (fields.length > 0) own.push({ resource, key, change: "changed", fields });
    }
    for (const key of beforeRecords.keys()) if (!now.records.has(key)) own.push({ resource, key, change: "removed", fields: [] });
    own.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const change of own) tally[change.change]++;
    // Not push(...own): a national-sized change (300,000 records added) is more arguments than a call takes.
    for (const change of own) changes.push(change);
  }
  return { fingerprints: current, changes, counts, unchanged: previous !== null && changes.length === 0 };
}

/** The next release's id: the day in Johannesburg, with a sequence number after a release of the same day. */
export function nextReleaseId(history: readonly Release[], now: Date): string {
  const day = todayInJohannesburg(now);
  const sameDay = history.filter((r) => releaseDay(r.id) === day);
  if (sameDay.length === 0) return day;
  const last = sameDay.map((r) => Number(RELEASE_ID.exec(r.id)?.[2] ?? 1)).reduce((a, b) => Math.max(a, b), 1);
  return `${day}.${last + 1}`;
}

/** A new release of the planned changes, after `history` (newest first). */
export function newRelease(history: readonly Release[], plan: ReleasePlan, dataVersion: string, now: Date): ReleaseFile {
  const latest = history[0] ?? null;
  return {
    id: nextReleaseId(history, now),
    data_version: dataVersion,
    built_at: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    previous: latest?.id ?? null,
    baseline: latest === null,
    resources: plan.counts,
    changes: latest === null ? [] : plan.changes,
  };
}

/**
 * The releases to keep (newest first): those recorded within RETENTION_DAYS of the newest. The oldest one kept
 * becomes a baseline when its predecessor goes: nothing before it can be asked for, so it lists no changes.
 */
export function retain(history: readonly ReleaseFile[]): { kept: ReleaseFile[]; dropped: ReleaseFile[] } {
  const sorted = [...history].sort((a, b) => compareReleaseIds(b.id, a.id));
  const newest = sorted[0];
  if (!newest) return { kept: [], dropped: [] };
  const cutoff = addDays(releaseDay(newest.id), -RETENTION_DAYS);
  const kept = sorted.filter((r) => releaseDay(r.id) >= cutoff);
  const dropped = sorted.filter((r) => releaseDay(r.id) < cutoff);
  const oldest = kept.at(-1);
  if (oldest && dropped.length > 0 && !oldest.baseline) {
    const totals = Object.fromEntries(
      Object.entries(oldest.resources).map(([name, c]) => [name, { total: c.total, added: 0, removed: 0, changed: 0 }]),
    );
    kept[kept.length - 1] = { ...oldest, previous: null, baseline: true, resources: totals, changes: [] };
  }
  return { kept, dropped };
}

/** The live release: the new one, the latest when this build's records are its records, or none. */
export function liveRelease(history: readonly Release[], plan: ReleasePlan, recorded: Release | null): Release | null {
  if (recorded) return recorded;
  return plan.unchanged ? (history[0] ?? null) : null;
}

/** dist/'s release files: the index (newest first, without changes) and each release's changes. */
export function releaseFiles(history: readonly ReleaseFile[], live: Release | null, dataVersion: string): EmittedFile[] {
  const releases = history.map(({ changes: _changes, ...release }) => release);
  const aliases: Record<string, string> = {};
  if (live && live.data_version !== dataVersion) aliases[dataVersion] = live.id;
  const index: ReleaseIndex = { live: live?.id ?? null, releases, aliases };
  return [
    { path: paths.releases(), content: JSON.stringify(index) },
    ...history.filter((r) => !r.baseline).map((r) => ({ path: paths.changes(r.id), content: JSON.stringify(r.changes) })),
  ];
}
