// Releases: what a partner who keeps a copy of the data syncs with. A release is a build that published different
// records; its history is committed in sources/releases/ (build/release-history.ts) and the build writes it into
// dist/ for the Worker (functions/sync.ts). One schema per record serves the history's files, the Worker's answers
// and the OpenAPI document.
import { z } from "zod";

/** `2026-11-27` for a day's first release, `2026-11-27.2` for its second. */
export const RELEASE_ID = /^(\d{4}-\d{2}-\d{2})(?:\.([2-9]|[1-9]\d{1,2}))?$/;
/** A build's data version (manifest.json, the X-Data-Version header). */
export const DATA_VERSION = /^[0-9a-f]{16}$/;

/** How long the history is kept: releases older than this many days before the newest are dropped. */
export const RETENTION_DAYS = 400;

const CHANGE_KINDS = ["added", "removed", "changed"] as const;

const releaseId = z.string().regex(RELEASE_ID);
const count = z.number().int().min(0);

const ResourceCounts = z.object({
  total: count.describe("Records of the resource in this release."),
  added: count.describe("Records added since the previous release (0 in a baseline)."),
  removed: count.describe("Records removed since the previous release."),
  changed: count.describe("Records whose published fields changed since the previous release."),
});

export const Release = z.object({
  id: releaseId.describe("`YYYY-MM-DD` (the day it was recorded, in Johannesburg), with `.2`, `.3`, ... for a day's later releases."),
  data_version: z.string().regex(DATA_VERSION).describe("The data version of the build that published it (the X-Data-Version header)."),
  built_at: z.iso.datetime().describe("When the release was recorded (UTC)."),
  previous: releaseId.nullable().describe("The release before it; null for the oldest one kept."),
  baseline: z
    .boolean()
    .describe("true: the first release of the history, or one whose predecessor is no longer kept: its counts are totals and it lists no changes."),
  resources: z.record(z.string(), ResourceCounts).describe("Per resource (as named in /v1/data/<resource>): its counts."),
});
export type Release = z.infer<typeof Release>;

/** One record that a release added, removed or changed. */
export const StoredChange = z.object({
  resource: z.string(),
  key: z.string().describe("The record's key: its detail path's `{id}` or `{slug}` (for lists without detail records, the slug or id)."),
  change: z.enum(CHANGE_KINDS),
  fields: z
    .array(z.string())
    .describe(
      "The top-level fields whose values changed (for an added or removed record: []); `requirements` for a qualification whose subject requirements changed.",
    ),
});
export type StoredChange = z.infer<typeof StoredChange>;

export const Change = StoredChange.extend({ release: releaseId.describe("The release that made the change.") });
export type Change = z.infer<typeof Change>;

/** A release as committed in sources/releases/<id>.json: the release and its changes. */
export const ReleaseFile = Release.extend({ changes: z.array(StoredChange) });
export type ReleaseFile = z.infer<typeof ReleaseFile>;

/** What the Worker reads to answer /v1/releases and /v1/changes (dist/_internal/releases.json). */
export type ReleaseIndex = {
  /** The release the data in this build is, or null when the sources hold changes no release records yet. */
  live: string | null;
  /** Newest first. */
  releases: Release[];
  /** Data versions that are another name for a release: a later build of the same records whose files differ (a new layout). */
  aliases: Record<string, string>;
};

/** What /v1/meta says per resource. */
const ResourceMeta = z.object({
  total: count,
  verified_on: z
    .object({ oldest: z.string().nullable(), newest: z.string().nullable() })
    .describe("The oldest and newest `verified_on` among the resource's records (and their nested facts); null where none carries one."),
  upstream: z
    .array(z.object({ dataset: z.string(), edition: z.string(), source_url: z.url().nullable() }))
    .describe("The editions of the upstream datasets the resource rests on (for the catalogue: the intakes its records speak for)."),
});

export const Meta = z.object({
  release: z
    .object({ id: releaseId, built_at: z.iso.datetime() })
    .nullable()
    .describe("The live release; null for a local build of sources whose changes no release records yet (`npm run build -- --release`)."),
  data_version: z.string().regex(DATA_VERSION),
  built_at: z.iso.datetime().nullable().describe("When the live release was recorded; null with `release`."),
  retention_days: z.number().int().describe("How long releases (and so /v1/changes) are kept."),
  resources: z.record(z.string(), ResourceMeta),
});
export type Meta = z.infer<typeof Meta>;

/** Orders release ids by day, then sequence. */
export function compareReleaseIds(a: string, b: string): number {
  const [, dayA = "", seqA = "1"] = RELEASE_ID.exec(a) ?? [];
  const [, dayB = "", seqB = "1"] = RELEASE_ID.exec(b) ?? [];
  return dayA < dayB ? -1 : dayA > dayB ? 1 : Number(seqA) - Number(seqB);
}

/** The day of a release id. */
export function releaseDay(id: string): string {
  return RELEASE_ID.exec(id)?.[1] ?? id;
}
