// The documents anyone may read without a token: the OpenAPI document and the reference page with its
// assets. The build writes each `file` into dist/ (build/public-documents.ts); the Worker answers each
// `path` with that file (functions/documents.ts). Exact paths only, so no request can name another file.

export type PublicDocument = {
  /** The URL path clients ask for. */
  path: string;
  /** Where the build writes it in dist/. */
  file: string;
  contentType: string;
  /**
   * Counted against the anonymous rate limit of the client's address. Only the page itself is, so one load of
   * the reference page costs one request of the 60 a minute, not one per file: the files it loads (its
   * scripts, its style sheet, the OpenAPI document) are built once per deployment, the same for everyone,
   * computed from nothing the client sends, and answered 304 to a browser that has them (README: Rate limits).
   */
  counted: boolean;
};

export const OPENAPI_PATH = "/v1/openapi.json";
export const DOCS_PATH = "/docs";

/**
 * The production origin (wrangler.jsonc env.live routes), as the OpenAPI document's examples write it; the
 * reference page shows its own origin in its place (docs.js), so a page served by `npm start` on another port
 * shows commands that reach that server.
 */
export const EXAMPLE_ORIGIN = "https://api.sa-edu-data.co.za";

/** Files of the reference page's renderer (swagger-ui-dist), copied from node_modules at build time. */
export const RENDERER_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-bundle.js.LICENSE.txt", "LICENSE", "NOTICE"] as const;

const TEXT = "text/plain; charset=utf-8";
const typeOf = (name: string) => (name.endsWith(".js") ? "text/javascript; charset=utf-8" : name.endsWith(".css") ? "text/css; charset=utf-8" : TEXT);

export const PUBLIC_DOCUMENTS: readonly PublicDocument[] = [
  { path: OPENAPI_PATH, file: OPENAPI_PATH, contentType: "application/json; charset=utf-8", counted: false },
  { path: DOCS_PATH, file: "/docs/index.html", contentType: "text/html; charset=utf-8", counted: true },
  { path: "/docs/docs.js", file: "/docs/docs.js", contentType: typeOf("docs.js"), counted: false },
  ...RENDERER_FILES.map((name) => ({ path: `/docs/${name}`, file: `/docs/${name}`, contentType: typeOf(name), counted: false })),
];

/** The reference page may load only its own files and call only this origin (the renderer's "Try it out"). */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
