// The public documents: /v1/openapi.json and the reference page /docs with its assets, answered without a
// token, readable from any origin, with ETag / 304 and a public Cache-Control; `/` leads to /docs, and so
// does `/docs/`. One load of the page is one request against the anonymous rate limit, not one per file.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/env.ts";
import { ErrorBody } from "../../schema/api.ts";
import { OPERATIONS } from "../../schema/operations.ts";
import { DOCS_CONTENT_SECURITY_POLICY, OPENAPI_PATH, PUBLIC_DOCUMENTS } from "../../lib/public-documents.ts";
import { BASE, call, callHandler, clientAddress, json } from "./support.ts";

const realEnv = env as unknown as Env & { RATE_LIMIT_MINUTE: RateLimit };

describe("GET /v1/openapi.json", () => {
  it("answers without a token, from any origin, with the OpenAPI 3.1 document of every operation", async () => {
    const response = await call("/v1/openapi.json", { token: null, headers: { origin: "https://elsewhere.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toBe("public, max-age=120");
    expect(response.headers.get("x-data-version")).toMatch(/^[0-9a-f]{16}$/);
    const document = await json(response);
    expect(document.openapi).toMatch(/^3\.1\./);
    const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(operations.sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
  });

  it("answers the same with a token, and If-None-Match with 304", async () => {
    const first = await call("/v1/openapi.json");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await call("/v1/openapi.json", { token: null, headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const head = await call("/v1/openapi.json", { token: null, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");
  });
});

describe("the reference page", () => {
  it("serves /docs without a token, loading only this origin's files under a strict Content-Security-Policy", async () => {
    const response = await call("/docs", { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const html = await response.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(references.length).toBeGreaterThan(2);
    for (const reference of references) expect(reference, reference).toMatch(/^(\/docs\/|\/v1\/openapi\.json$|data:)/);
  });

  it("serves every file of the page, with its type and an ETag", async () => {
    for (const document of PUBLIC_DOCUMENTS) {
      const response = await call(document.path, { token: null });
      expect(response.status, document.path).toBe(200);
      expect(response.headers.get("content-type"), document.path).toBe(document.contentType);
      expect(response.headers.get("etag"), document.path).toBeTruthy();
      expect((await response.arrayBuffer()).byteLength, document.path).toBeGreaterThan(0);
    }
  });

  it("leads / to /docs", async () => {
    for (const token of [null, undefined]) {
      const response = await call("/", { token });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/docs");
    }
  });

  it("moves /docs/ (a trailing slash) to /docs for good", async () => {
    for (const token of [null, undefined]) {
      const response = await call("/docs/", { token });
      expect(response.status).toBe(301);
      expect(response.headers.get("location")).toBe("/docs");
    }
  });

  it("counts one load of the page once: thirty loads in a minute from one address, under production's 60 a minute, are never refused", async () => {
    const production = {
      ...realEnv,
      RATE_LIMIT_ANONYMOUS: realEnv.RATE_LIMIT_MINUTE,
      RATE_LIMITS: { ...realEnv.RATE_LIMITS, anonymous: { limit: 60, period: 60 } },
    };
    const address = clientAddress();
    const get = (path: string) => callHandler(new Request(`${BASE}${path}`, { headers: { "cf-connecting-ip": address } }), production);
    const left: number[] = [];
    for (let load = 1; load <= 30; load++) {
      const page = await get("/docs");
      expect(page.status, `load ${load}`).toBe(200);
      expect(page.headers.get("ratelimit-policy")).toBe('"anonymous";q=60;w=60');
      left.push(Number(/;r=(\d+)/.exec(page.headers.get("ratelimit") ?? "")?.[1]));
      // What a browser then fetches: the files the page names and the document its script loads.
      const files = [...(await page.text()).matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] ?? "");
      expect(files.length).toBeGreaterThanOrEqual(3);
      for (const file of [...files, OPENAPI_PATH]) {
        const response = await get(file);
        expect(response.status, file).toBe(200);
        expect(response.headers.get("ratelimit"), `${file} is not counted`).toBeNull();
        await response.body?.cancel();
      }
    }
    // One count per load: the requests left fall by one from load to load (or start again at a new minute).
    for (let n = 1; n < left.length; n++) expect([(left[n - 1] ?? 0) - 1, 59], `load ${n + 1}`).toContain(left[n]);
  });

  it("serves nothing else without a token: other files, other methods", async () => {
    for (const path of [
      "/docs//",
      "/docs/index.html",
      "/docs/swagger-ui-bundle.js.map",
      "/docs/../manifest.json",
      "/v1/openapi.yaml",
      "/openapi.json",
    ]) {
      const response = await call(path, { token: null });
      expect(response.status, path).toBe(401);
      expect((await call(path)).status, path).toBe(404);
    }
    expect((await call("/v1/openapi.json", { token: null, method: "POST", body: "{}" })).status).toBe(401);
    const post = await call("/v1/openapi.json", { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(ErrorBody.parse(await json(post)).error.code).toBe("method_not_allowed");
  });
});
