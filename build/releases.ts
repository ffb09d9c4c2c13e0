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
import { CHILDREN_FIELD, publishedRecords, recordText, type ResourceRecords } from "./records.ts";

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
export const fieldDigest = (value: unknown) => digestHex(fnv1a32(JSON.stringify(value) ?? "undefined"));

const [QUOTE, BACKSLASH, COLON, COMMA] = ['"', "\\", ":", ","].map((c) => c.charCodeAt(0)) as [number, number, number, number];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_LIST, CLOSE_LIST] = ["{", "}", "[", "]"].map((c) => c.charCodeAt(0)) as [number, number, number, number];

/**
 * The field digests of an object from its JSON text (JSON.stringify's, no white space): each top-level field's value
 * is there as JSON.stringify(value), so its FNV-1a hash is taken in place, with no string made per field (a string
 * per field of every record was most of the fingerprints' time and garbage). Sets `into` to name -> hash; false
 * for a text it does not read (a key with an escape), which the caller digests field by field instead.
 */
export function fieldHashesOfText(text: string, into: Map<string, number>): boolean {
  into.clear();
  const end = text.length - 1;
  if (text.charCodeAt(0) !== OPEN_OBJECT || text.charCodeAt(end) !== CLOSE_OBJECT) return false;
  let i = 1;
  while (i < end) {
    if (text.charCodeAt(i) !== QUOTE) return false;
    const close = text.indexOf('"', i + 1);
    const name = text.slice(i + 1, close);
    if (close < 0 || name.includes("\\") || text.charCodeAt(close + 1) !== COLON) return false;
    let hash = 0x811c9dc5;
    let depth = 0;
    let inText = false;
    for (i = close + 2; i < end; i++) {
      const c = text.charCodeAt(i);
      if (inText) {
        if (c === BACKSLASH) {
          hash = Math.imul(hash ^ c, 0x01000193);
          i++;
          hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
          continue;
        }
        if (c === QUOTE) inText = false;
      } else if (c === QUOTE) inText = true;
      else if (c === OPEN_OBJECT || c === OPEN_LIST) depth++;
      else if (c === CLOSE_OBJECT || c === CLOSE_LIST) depth--;
      else if (c === COMMA && depth === 0) break;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    into.set(name, hash >>> 0);
    i++;
  }
  return true;
}

/**
 * Each record's field digests, from its published text: a detail record's as the emit stage wrote it (recordText;
 * its requirements, which that text does not hold, digested apart), a list item's made once.
 */
export function fingerprintsOf(resources: ResourceRecords[]): Fingerprints {
  const fingerprints: Fingerprints = {};
  const hashes = new Map<string, number>();
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
    const details = resource.detail?.records;
    const apart = resource.children ? CHILDREN_FIELD : null;
    const digests = new Map<string, string>();
    records.forEach(({ key, fields: record }, at) => {
      const read = fieldHashesOfText(details ? recordText(details[at]?.record) : JSON.stringify(record), hashes);
      const digestOf = (name: string) => {
        const hash = read && name !== apart ? hashes.get(name) : undefined;
        return hash === undefined ? fieldDigest(record[name]) : digestHex(hash);
      };
      // join(), not +=: a string built by += is a rope of one node per field, three times the memory of the flat string.
      digests.set(key, fields.map((name) => (name in record ? digestOf(name) : ABSENT)).join(""));
    });
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
