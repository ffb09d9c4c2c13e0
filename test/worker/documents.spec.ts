// The public documents: /v1/openapi.json and the reference page /docs with its assets, answered without a
// token, readable from any origin, with ETag / 304 and a public Cache-Control; `/` leads to /docs.
import { describe, expect, it } from "vitest";
import { ErrorBody } from "../../schema/api.ts";
import { OPERATIONS } from "../../schema/operations.ts";
import { DOCS_CONTENT_SECURITY_POLICY, PUBLIC_DOCUMENTS } from "../../lib/public-documents.ts";
import { call, json } from "./support.ts";

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

  it("serves nothing else without a token: other files, other methods", async () => {
    for (const path of [
      "/docs/",
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
