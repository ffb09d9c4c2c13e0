// The committed release history, sources/releases/: one file per release (<id>.json: the release and its changes)
// and, in fingerprints/, the latest release's records (per resource, a short digest of every field of every record),
// which the next release is compared with. Read at the start of every build; written only after a build that
// recorded a release was swapped in (recordRelease), so no release is ever recorded for data that was not published.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomically } from "../lib/write-atomically.ts";
import { compareReleaseIds, RELEASE_ID, ReleaseFile } from "../schema/releases.ts";
import type { Problem } from "./problems.ts";
import { retain, type Fingerprints } from "./releases.ts";

export const RELEASES_FOLDER = "releases";
const FINGERPRINTS_FOLDER = "fingerprints";

export type History = { releases: ReleaseFile[]; fingerprints: Fingerprints | null };

const FIELD_DIGESTS = /^([0-9a-f]{6}|-{6})*$/;

const FingerprintFile = z.object({
  fields: z.array(z.string()),
  records: z.array(z.tuple([z.string(), z.string().regex(FIELD_DIGESTS)])),
});

/** FingerprintFile's check without zod, for the common case of a valid file (zod took a tenth of a second for the
 * committed national fingerprints); zod still reads any file this refuses, for its messages. */
function isFingerprintFile(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const { fields, records } = value as { fields?: unknown; records?: unknown };
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string") || !Array.isArray(records)) return false;
  for (const record of records) {
    if (!Array.isArray(record) || record.length !== 2) return false;
    const [key, digests] = record as unknown[];
    if (typeof key !== "string" || typeof digests !== "string" || !FIELD_DIGESTS.test(digests)) return false;
  }
  return true;
}

const relative = (sourcesDir: string, ...parts: string[]) => path.join(path.basename(sourcesDir), RELEASES_FOLDER, ...parts);

/** `valid`: a check that is true only for values the schema accepts unchanged, run first to skip zod. */
function parseJson(text: string, file: string, schema: z.ZodType, problems: Problem[], valid?: (value: unknown) => boolean): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({ file, line: 1, expected: `JSON (${error instanceof Error ? error.message : String(error)})`, fatal: true });
    return null;
  }
  if (valid?.(value)) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues.slice(0, 5)) {
    problems.push({ file, line: 1, column: issue.path.join("."), expected: issue.message, fatal: true });
  }
  return null;
}

/** Reads sources/releases/ (an absent folder is an empty history). Releases newest first. Read synchronously: the build
 * reads it while the thread pool writes its files, and an asynchronous read queued behind those thousands of writes
 * (0.5 to 1.8 s on the development machine's disk). */
export async function readHistory(sourcesDir: string): Promise<{ history: History; problems: Problem[] }> {
  const folder = path.join(sourcesDir, RELEASES_FOLDER);
  const problems: Problem[] = [];
  if (!existsSync(folder)) return { history: { releases: [], fingerprints: null }, problems };
  const releases: ReleaseFile[] = [];
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    const file = relative(sourcesDir, name);
    const id = name.slice(0, -".json".length);
    if (!RELEASE_ID.test(id)) {
      problems.push({ file, line: 1, value: name, expected: "a release file named <release id>.json (YYYY-MM-DD or YYYY-MM-DD.N)", fatal: true });
      continue;
    }
    const release = parseJson(readFileSync(path.join(folder, name), "utf8"), file, ReleaseFile, problems) as ReleaseFile | null;
    if (release && release.id !== id)
      problems.push({ file, line: 1, column: "id", value: release.id, expected: `the id the file is named by (${id})` });
    else if (release) releases.push(release);
  }
  releases.sort((a, b) => compareReleaseIds(b.id, a.id));
  const fingerprints = await readFingerprints(sourcesDir, problems);
  if (releases.length > 0 && fingerprints === null) {
    problems.push({
      file: relative(sourcesDir, FINGERPRINTS_FOLDER),
      line: 0,
      expected: "the latest release's fingerprints (written with it)",
      fatal: true,
    });
  }
  return { history: { releases, fingerprints }, problems };
}

async function readFingerprints(sourcesDir: string, problems: Problem[]): Promise<Fingerprints | null> {
  const folder = path.join(sourcesDir, RELEASES_FOLDER, FINGERPRINTS_FOLDER);
  if (!existsSync(folder)) return null;
  const fingerprints: Fingerprints = {};
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    const file = relative(sourcesDir, FINGERPRINTS_FOLDER, name);
    const parsed = parseJson(readFileSync(path.join(folder, name), "utf8"), file, FingerprintFile, problems, isFingerprintFile) as z.infer<
      typeof FingerprintFile
    > | null;
    if (!parsed) continue;
    const width = parsed.fields.length * 6;
    const records = new Map<string, string>();
    for (const [key, digests] of parsed.records) {
      if (digests.length !== width) {
        problems.push({ file, line: 1, column: key, expected: `${parsed.fields.length} field digests`, fatal: true });
        continue;
      }
      records.set(key, digests);
    }
    fingerprints[name.slice(0, -".json".length)] = { fields: parsed.fields, records };
  }
  return fingerprints;
}

/** One item a line, so that a night's commit changes only the lines of what changed. */
function releaseText(release: ReleaseFile): string {
  const { changes, ...head } = release;
  const items = changes.map((c) => JSON.stringify(c));
  const body = JSON.stringify(head).slice(0, -1);
  return `${body},"changes":[${items.length === 0 ? "" : `\n${items.join(",\n")}\n`}]}\n`;
}

function fingerprintText(fields: string[], records: Map<string, string>): string {
  const keys = [...records.keys()].sort();
  const lines = keys.map((key) => JSON.stringify([key, records.get(key) ?? ""]));
  return `{"fields":${JSON.stringify(fields)},"records":[${lines.length === 0 ? "" : `\n${lines.join(",\n")}\n`}]}\n`;
}

/**
 * Records a published release: its file, the fingerprints of its records, and the history cut to the retention
 * period (build/releases.ts retain). Call only after the build that made it was swapped in.
 */
export async function recordRelease(sourcesDir: string, history: History, release: ReleaseFile, fingerprints: Fingerprints): Promise<void> {
  const folder = path.join(sourcesDir, RELEASES_FOLDER);
  const { kept, dropped } = retain([release, ...history.releases]);
  const fingerprintFolder = path.join(folder, FINGERPRINTS_FOLDER);
  for (const [resource, { fields, records }] of Object.entries(fingerprints)) {
    await writeFileAtomically(path.join(fingerprintFolder, `${resource}.json`), fingerprintText(fields, records));
  }
  for (const name of existsSync(fingerprintFolder) ? await readdir(fingerprintFolder) : []) {
    if (name.endsWith(".json") && !(name.slice(0, -5) in fingerprints)) await rm(path.join(fingerprintFolder, name));
  }
  const before = new Map(history.releases.map((r) => [r.id, releaseText(r)]));
  for (const kept_ of kept) {
    const text = releaseText(kept_);
    if (before.get(kept_.id) !== text) await writeFileAtomically(path.join(folder, `${kept_.id}.json`), text);
  }
  for (const old of dropped) await rm(path.join(folder, `${old.id}.json`), { force: true });
}
