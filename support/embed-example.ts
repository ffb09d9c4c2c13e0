// The embed example (examples/embed/) served as a partner's site serves it: on an origin of its own, so its
// calls to the API are cross-origin like a real embed's, with the API's base URL and a publishable token for
// that origin written into the page's script tag (where a partner pastes theirs), and a Content-Security-Policy
// that allows the page to call the API and nothing else. `npm start` runs it beside the API
// (http://127.0.0.1:8788, EMBED_PORT); the browser test runs it against the test server.
import { readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ROOT } from "../lib/root.ts";

const EMBED_DIR = path.join(ROOT, "examples", "embed");

/** What the example's token carries: the school list and provinces for the picker, the APS comparison (subjects: any token). */
export const EMBED_SCOPES = ["high_schools:read", "provinces:read", "aps_calculator:use"];

/** The script tag's attributes as the page ships them, for a partner to replace. */
const PLACEHOLDERS = { api: 'data-api="https://api.sa-edu-data.co.za"', token: 'data-token="PASTE_YOUR_PUBLISHABLE_TOKEN"' };

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export type EmbedExample = { origin: string; stop(): Promise<void> };

/** The page with this API and token in its script tag; fails if the page no longer has the placeholders. */
function fillIn(page: string, api: string, token: string): string {
  for (const placeholder of Object.values(PLACEHOLDERS)) {
    if (!page.includes(placeholder)) throw new Error(`examples/embed/index.html has no ${placeholder} to fill in`);
  }
  return page.replace(PLACEHOLDERS.api, `data-api="${api}"`).replace(PLACEHOLDERS.token, `data-token="${token}"`);
}

/**
 * Serves examples/embed/ on `host:port` (port 0: any free one). `token(origin)` mints the publishable token
 * for the origin the example ends up on.
 */
export async function startEmbedExample(options: {
  api: string;
  token: (origin: string) => Promise<string>;
  host?: string;
  port?: number;
}): Promise<EmbedExample> {
  const files = new Map<string, Buffer>();
  for (const name of await readdir(EMBED_DIR)) {
    if (TYPES[path.extname(name)]) files.set(`/${name}`, await readFile(path.join(EMBED_DIR, name)));
  }
  let page = "";
  const api = options.api.replace(/\/+$/, "");
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://example.invalid").pathname;
    const name = pathname === "/" ? "/index.html" : pathname;
    const file = files.get(name);
    if ((request.method !== "GET" && request.method !== "HEAD") || file === undefined) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const body = name === "/index.html" ? Buffer.from(page) : file;
    response.writeHead(200, {
      "content-type": TYPES[path.extname(name)] ?? "application/octet-stream",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'self'; connect-src ${new URL(api).origin}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      "x-content-type-options": "nosniff",
    });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const origin = `http://${address}:${port}`;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    page = fillIn(String(files.get("/index.html") ?? ""), api, await options.token(origin));
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}
