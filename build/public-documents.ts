// Part of the emit stage: the documents anyone may read (lib/public-documents.ts). The OpenAPI document is
// generated from the operation table and the zod schemas (schema/openapi.ts) with examples read from the
// files this build emits, so every example is a record the API really serves. The reference page is
// Swagger UI (swagger-ui-dist), copied from node_modules into dist/docs/, so a browser fetches nothing
// from anywhere but this API.
//
// These files are not data: the manifest (its file count, bytes and data version) covers the data files
// only, and stays byte-identical whatever the page or the document say.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { bucketOf } from "../lib/buckets.ts";
import { bucketRecords, chunkItems } from "../lib/sliced.ts";
import { paths, type Manifest } from "../lib/layout.ts";
import { DOCS_PATH, EXAMPLE_ORIGIN, OPENAPI_PATH, PUBLIC_DOCUMENTS, RENDERER_FILES } from "../lib/public-documents.ts";
import { openApiDocument } from "../schema/openapi.ts";
import type { ExampleSource } from "../schema/operations.ts";
import type { EmittedFile } from "./emit.ts";

/** Examples read from the emitted data files, the way the Worker reads them. */
function examplesFrom(text: (path: string) => string | undefined, manifest: Manifest, today: string): ExampleSource {
  const read = <T>(file: string): T | null => {
    const content = text(file);
    return content === undefined ? null : (JSON.parse(content) as T);
  };
  const listItems = (resource: string, count: number) => {
    const entry = manifest.resources[resource];
    const chunk = entry?.list && entry.list.chunks > 0 ? text(paths.listChunk(resource, 0)) : undefined;
    const items = chunk === undefined ? [] : chunkItems<Record<string, unknown>>(chunk);
    return { items: items.slice(0, count), total: entry?.total ?? 0 };
  };
  return {
    listItems,
    wholeList: (resource) => read(paths.wholeList(resource)),
    detail(resource, key) {
      const storage = manifest.resources[resource]?.detail;
      if (storage?.kind !== "buckets") return read(paths.detail(resource, key));
      const bucket = text(paths.bucket(resource, bucketOf(key, storage.count)));
      const record = bucket === undefined ? undefined : bucketRecords(bucket)[key];
      return record === undefined ? null : { data: record };
    },
    requirements() {
      for (const { id } of listItems("qualifications", Number.MAX_SAFE_INTEGER).items) {
        const body = read<{ data: unknown[] }>(paths.requirements(String(id)));
        if (body && body.data.length > 0) return { id: String(id), body };
      }
      return null;
    },
    apsDocument: (slug) => read(paths.apsUniversity(slug)),
    apsIndex: () => read(paths.apsIndex()),
    file: (file) => read(file),
    today,
  };
}

const TITLE = "South African higher-education data API";

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}: reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document it shows is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/docs.js"></script>
</body>
</html>
`;
}

// A file of its own rather than an inline script, so the page's Content-Security-Policy can allow this
// origin's scripts only.
export const DOCS_SCRIPT = `// Shows ${OPENAPI_PATH} with Swagger UI, served from this origin (dist/docs/, copied from swagger-ui-dist at build time).
// The document's examples name the production origin; the page shows the origin it was served from instead,
// so its commands reach the server the reader is looking at (npm start on any port included).
const specUrl = new URL(${JSON.stringify(OPENAPI_PATH)}, location.href).href;
window.ui = SwaggerUIBundle({
  url: specUrl,
  dom_id: "#swagger-ui",
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
  validatorUrl: null,
  responseInterceptor: (response) => {
    if (response.url === specUrl && typeof response.text === "string") {
      response.text = response.text.split(${JSON.stringify(EXAMPLE_ORIGIN)}).join(location.origin);
      response.body = JSON.parse(response.text);
    }
    return response;
  },
});
`;

let rendererRead: Promise<EmittedFile[]> | undefined;

/** Swagger UI's files, read once per process. The build asks for them when it starts (readRendererFiles), so they are
 * read while it loads its tables instead of being waited for at the end. */
export function readRendererFiles(): Promise<EmittedFile[]> {
  rendererRead ??= (async () => {
    const folder = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
    return Promise.all(
      RENDERER_FILES.map(async (name) => ({ path: `${DOCS_PATH}/${name}`, content: await readFile(path.join(folder, name), "utf8") })),
    );
  })();
  // A failed read is answered when the documents are made (and the next build reads again); until then it is no
  // unhandled rejection.
  const read = rendererRead;
  read.catch(() => {
    if (rendererRead === read) rendererRead = undefined;
  });
  return read;
}

/** The public documents of this build, one per entry of PUBLIC_DOCUMENTS; `text` reads the build's emitted files. */
export async function publicDocuments(
  data: { text: (path: string) => string | undefined; manifest: Manifest },
  today: string,
): Promise<EmittedFile[]> {
  const document = await openApiDocument({ examples: examplesFrom(data.text, data.manifest, today) });
  const files: EmittedFile[] = [
    { path: OPENAPI_PATH, content: JSON.stringify(document) },
    { path: `${DOCS_PATH}/index.html`, content: docsPage() },
    { path: `${DOCS_PATH}/docs.js`, content: DOCS_SCRIPT },
    ...(await readRendererFiles()),
  ];
  const expected = PUBLIC_DOCUMENTS.map((d) => d.file).sort();
  const written = files.map((f) => f.path).sort();
  if (JSON.stringify(expected) !== JSON.stringify(written))
    throw new Error(`public documents: wrote ${written.join(", ")}, the Worker serves ${expected.join(", ")}`);
  return files;
}
