// The operations a partner who keeps a copy of the data syncs with: what is live (/v1/meta), the releases, what
// changed since one of them, and every record of a resource in one download with the data dictionary. The Worker
// answers them in functions/sync.ts and functions/bulk.ts; README "Releases and bulk files" says how to use them.
import { z } from "zod";
import { MAX_PER_PAGE } from "../lib/pagination.ts";
import * as api from "./api.ts";
import { BULK_FILES, BULK_FORMATS } from "./bulk.ts";
import { paths } from "../lib/layout.ts";
import type { Operation } from "./operation.ts";
import { SYNC_QUERY_PARAMETERS, type QueryParameter } from "./query.ts";
import { Change, compareReleaseIds, Meta, Release, type ReleaseIndex, type StoredChange } from "./releases.ts";
import { paginationQuery } from "./resource-operations.ts";

const TAG_SYNC = {
  name: "Releases and bulk files",
  description:
    "What is live, the releases with what each changed, the changes since a release, and every record of a resource in one download, with the data dictionary.",
};

const QUERY_ERRORS = ["invalid_pagination", "invalid_parameter", "unknown_parameter"] as const;

function queryOf(table: Readonly<Record<string, QueryParameter>>): z.ZodObject {
  const own = Object.entries(table)
    .filter(([name]) => name !== "page" && name !== "per_page")
    .map(([name, parameter]) => [name, parameter.schema.describe(parameter.description)]);
  return paginationQuery().extend(Object.fromEntries(own));
}

const getMeta: Operation = {
  operationId: "getMeta",
  method: "get",
  path: "/v1/meta",
  summary: "What is live",
  description:
    "The live release and data version, when it was recorded, and per resource: its record count, the oldest and newest `verified_on` among its records, and the upstream editions it rests on (the DBE masterlist, the SAPO list, the NSC report, the catalogue's intakes). Any valid token.",
  tag: TAG_SYNC,
  scope: null,
  response: { name: "MetaResponse", schema: api.recordOf(Meta), description: "The live data's release and provenance." },
  errors: ["unknown_parameter"],
  target: () => ({ kind: "meta" }),
  examples: (source) => {
    const body = source.file(paths.meta());
    return body ? [{ summary: "What this build is", response: body }] : [];
  },
};

const listReleases: Operation = {
  operationId: "listReleases",
  method: "get",
  path: "/v1/releases",
  summary: "List releases",
  description: `Every release kept (at least 400 days), newest first, each with per resource its total and the records it added, removed and changed. A release is a build that published different records. Any valid token; ${MAX_PER_PAGE} a page at most.`,
  tag: TAG_SYNC,
  scope: null,
  query: queryOf(SYNC_QUERY_PARAMETERS.releases),
  response: { name: "ReleasePage", schema: api.pageOf(Release), description: "A page of releases." },
  errors: [...QUERY_ERRORS],
  target: () => ({ kind: "releases" }),
  examples: (source) => {
    const index = source.file(paths.releases()) as ReleaseIndex | null;
    if (!index) return [];
    const response = { data: index.releases.slice(0, 2), meta: { total: index.releases.length, page: 1, per_page: 2 } };
    return [{ summary: "The newest two releases", query: { per_page: 2 }, response }];
  },
};

const listChanges: Operation = {
  operationId: "listChanges",
  method: "get",
  path: "/v1/changes",
  summary: "What changed since a release",
  description:
    "One item per record that a release after `since` added, removed or changed, oldest release first (then by resource and key), with the top-level fields whose values changed. A record changed by two releases appears twice; apply the items in order. Only the resources the token may read appear (the scope of each resource's detail endpoint), and `meta.total` counts only those. `meta.until` is the newest release the list reaches: use it as the next `since`. A `since` older than the kept history answers 410 `release_gone`: download the bulk files again.",
  tag: TAG_SYNC,
  scope: null,
  query: queryOf(SYNC_QUERY_PARAMETERS.changes),
  response: {
    name: "ChangePage",
    schema: z.object({
      data: z.array(Change),
      meta: api.PageMeta.extend({
        since: z.string().describe("The release `since` named (a data version is resolved to its release)."),
        until: z.string().nullable().describe("The newest release; null when there is none."),
      }),
    }),
    description: "A page of changes.",
  },
  errors: [...QUERY_ERRORS, "unknown_release", "release_gone"],
  target: () => ({ kind: "changes" }),
  examples: (source) => {
    const index = source.file(paths.releases()) as ReleaseIndex | null;
    const oldest = index?.releases.at(-1);
    if (!index || !oldest) return [];
    // The first page since the oldest release kept, for a token that may read every resource.
    const later = index.releases.filter((r) => compareReleaseIds(r.id, oldest.id) > 0).reverse();
    const all = later.flatMap((r) => ((source.file(paths.changes(r.id)) as StoredChange[] | null) ?? []).map((c) => ({ release: r.id, ...c })));
    const meta = { total: all.length, page: 1, per_page: 20, since: oldest.id, until: index.releases[0]?.id ?? null };
    return [{ summary: "The changes since the oldest release kept", query: { since: oldest.id }, response: { data: all.slice(0, 20), meta } }];
  },
};

const FILE_NAMES = BULK_FILES.map((f) => f.name);
const FILE_PATTERN = `(?:${FILE_NAMES.join("|")})\\.(?:${BULK_FORMATS.join("|")})`;

const getBulkFile: Operation = {
  operationId: "getBulkFile",
  method: "get",
  path: "/v1/bulk/{file}",
  summary: "Download every record of a resource",
  description: `Every record of the live release in one file, \`<name>.csv\` or \`<name>.ndjson\`, for ${FILE_NAMES.map((n) => `\`${n}\``).join(", ")}. NDJSON: one record a line, exactly as the detail endpoint serves it. CSV: flattened by the rule of the data dictionary (GET /v1/bulk/dictionary.json). Needs the resource's own scope (\`qualification-requirements\`: qualifications:requirements; \`nsc-results\`: high_schools:read). \`Content-Disposition\` names the release.`,
  tag: TAG_SYNC,
  scope: null,
  pathParameters: z.object({
    file: z
      .string()
      .regex(new RegExp(`^${FILE_PATTERN}$`))
      .describe(`A file name: one of ${FILE_NAMES.join(", ")}, then .${BULK_FORMATS.join(" or .")}.`),
  }),
  pathPatterns: { file: FILE_PATTERN },
  response: {
    name: "BulkFile",
    schema: z.string(),
    description: "The file.",
    media: { "text/csv": "RFC 4180 CSV with a header line", "application/x-ndjson": "one JSON record a line" },
  },
  errors: ["unknown_parameter", "insufficient_scope", "not_found"],
  target: (parameters) => ({ kind: "bulk", file: parameters.file ?? "" }),
  // A file is no JSON example: its media types say what it holds (test/worker/sync.spec.ts checks the files).
  examples: () => [],
};

const getDataDictionary: Operation = {
  operationId: "getDataDictionary",
  method: "get",
  path: "/v1/bulk/dictionary.json",
  summary: "The data dictionary",
  description:
    "Every column of every bulk file: its type, meaning, whether it can be null and why, and where it comes from, generated from the schemas the API checks its records against. Also docs/data-dictionary.md. Any valid token.",
  tag: TAG_SYNC,
  scope: null,
  response: {
    name: "DataDictionaryResponse",
    schema: api.recordOf(
      z.object({
        csv_rule: z.string(),
        files: z.array(
          z.object({
            name: z.string(),
            record: z.string(),
            scope: z.string().nullable(),
            origin: z.string(),
            columns: z.array(
              z.object({
                name: z.string(),
                type: z.string(),
                nullable: z.boolean(),
                meaning: z.string(),
                null_when: z.string().nullable(),
                origin: z.string(),
              }),
            ),
          }),
        ),
      }),
    ),
    description: "The dictionary.",
  },
  errors: ["unknown_parameter"],
  target: () => ({ kind: "bulk", file: "dictionary.json" }),
  examples: (source) => {
    const body = source.file(paths.bulk("dictionary", "json"));
    return body ? [{ summary: "The dictionary", response: body }] : [];
  },
};

export const SYNC_OPERATIONS: Operation[] = [getMeta, listReleases, listChanges, getDataDictionary, getBulkFile];
