// The local server's own behaviour (support/local-server.ts): Miniflare runs the Worker on workerd with a socket
// straight to it, so what Cloudflare's edge and wrangler's assets router would do in front of it must hold here
// too: every request reaches the Worker first (run_worker_first), the client's address arrives in
// CF-Connecting-IP, and a client that accepts compression gets it.
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { isolateHeaps } from "../../bench/isolate-heaps.ts";
import { freePort } from "../../lib/ports.ts";
import { startLocalServer, startWorkerDirect, type LocalServer } from "../../support/local-server.ts";
import { ROOT } from "../../support/test-dataset.ts";

let server: LocalServer;
let auth: Record<string, string>;

beforeAll(async () => {
  server = await startLocalServer("local-server-test");
  auth = { authorization: `Bearer ${await server.token(["universities:read"])}` };
});

afterAll(async () => {
  await server?.stop();
});

/** A GET with exactly these headers (fetch would add its own Accept-Encoding), and the raw bytes of the answer. */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.base}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("the local server", () => {
  it("sends every request to the Worker first: a file of the build is not served as it is", async () => {
    const response = await get("/manifest.json", auth);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString("utf8"))).toMatchObject({ error: { code: "not_found" } });
  });

  it("compresses an answer for a client that accepts gzip or brotli, and only then", async () => {
    const path = "/v1/data/universities?per_page=20";
    const plain = await get(path, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const gzip = await get(path, { ...auth, "accept-encoding": "gzip, deflate" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const br = await get(path, { ...auth, "accept-encoding": "br;q=1, gzip;q=0.5" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const refused = await get(path, { ...auth, "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
  });

  it("gives the Worker the client's address, 127.0.0.1, as Cloudflare's edge would", async () => {
    // Requests without a token count against the anonymous limit per client address (functions/rate-limit.ts).
    const remaining = async (headers: Record<string, string>) => {
      const response = await get("/v1/data/universities", headers);
      expect(response.status).toBe(401);
      return Number(/;r=(\d+)/.exec(String(response.headers.ratelimit))?.[1]);
    };
    const first = await remaining({});
    expect(await remaining({ "cf-connecting-ip": "127.0.0.1" })).toBe(first - 1);
    expect(await remaining({ "cf-connecting-ip": "192.0.2.44" })).toBeGreaterThan(first - 1);
  });
});

describe("the local server's inspector (npm start's INSPECTOR_PORT)", () => {
  it("gives each isolate's V8 heap, the Worker's among them (bench/isolate-heaps.ts, the load-start bench)", async () => {
    const inspectorPort = await freePort();
    const worker = await startWorkerDirect(path.join(ROOT, "test/worker/wrangler.jsonc"), 0, {}, "error", inspectorPort);
    try {
      const heaps = await isolateHeaps(inspectorPort);
      const ours = heaps.find((h) => h.name.startsWith("core:user:"));
      expect(ours?.usedMiB).toBeGreaterThan(0);
      expect(ours?.totalMiB).toBeGreaterThanOrEqual(ours?.usedMiB ?? 0);
      expect(heaps.length).toBeGreaterThan(1);
    } finally {
      await worker.stop();
    }
  });
});
