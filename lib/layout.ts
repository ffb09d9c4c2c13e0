// Where each public document lives inside dist/. The build writes these paths and the Worker reads them,
// so both import them from here. The Worker never hands a client's path to the asset server: it validates
// the path parameters and builds one of these paths itself.

type DetailStorage = { kind: "files" } | { kind: "buckets"; count: number };

export type ResourceManifest = {
  total: number;
  /** Paginated resources: how the list is chunked. */
  list?: { chunk_size: number; chunks: number };
  /** Resources with detail records: one file per record, or buckets of records. */
  detail?: DetailStorage;
};

/** One list's find index (filters, name search, nearest): its parts, each a contiguous run of the list. */
export type FindIndexManifest = {
  rows: number;
  bytes: number;
  parts: { path: string; offset: number; rows: number; bytes: number }[];
};

export type Manifest = {
  data_version: string;
  resources: Record<string, ResourceManifest>;
  files: number;
  bytes: number;
  /** The find index of each paginated list (build/find-index.ts, docs/find.md). */
  find?: Record<string, FindIndexManifest>;
};

export const MANIFEST_PATH = "/manifest.json";

export const paths = {
  listChunk: (resource: string, chunk: number) => `/v1/data/${resource}/_list/${chunk}.json`,
  wholeList: (resource: string) => `/v1/data/${resource}.json`,
  detail: (resource: string, key: string) => `/v1/data/${resource}/${key}.json`,
  bucket: (resource: string, bucket: number) => `/v1/data/${resource}/_buckets/${bucket}.json`,
  /** In one folder, not a folder per qualification: making 1,866 folders cost a third of a second of the build. */
  requirements: (qualificationId: string) => `/v1/data/qualifications/_requirements/${qualificationId}.json`,
  apsUniversity: (universitySlug: string) => `/_internal/aps/${universitySlug}.json`,
  /** The universities with an APS document, in name order, and every subject slug (the comparison reads it). */
  apsIndex: () => `/_internal/aps-index.json`,
  /** Every university's prepared form for the comparison (domain/aps/judging.ts, PreparedForm), by slug. */
  apsCompare: () => `/_internal/aps-compare.json`,
  /** Map of prospectus document path (under the asset base) to the university's own document URL. */
  prospectusDocuments: () => `/_internal/prospectus-documents.json`,
  /** Key -> digest of each record of a resource (detail record plus its requirements), never served: the
   * nightly rebuild diffs two builds with it (records added, removed, changed). */
  recordDigests: (resource: string) => `/_internal/records/${resource}.json`,
  /** Part `part` of a list's find index, never served: the Worker answers filters and searches from it. */
  findIndex: (resource: string, part: number) => `/_internal/find/${resource}/${part}.json`,
  /** The body of GET /v1/meta (build/meta.ts). */
  meta: () => "/_internal/meta.json",
  /** The release history without changes, newest first, and the live release (build/releases.ts). */
  releases: () => "/_internal/releases.json",
  /** One release's changes. */
  changes: (release: string) => `/_internal/changes/${release}.json`,
  /** A bulk file, or the data dictionary (`dictionary`, `json`) (build/bulk.ts). */
  bulk: (name: string, format: string) => `/_internal/bulk/${name}.${format}`,
};
