// Pagination, errors, paths that must not reach internal files, HEAD, CORS and caching.
import { describe, expect, it } from "vitest";
import { ErrorBody } from "../../schema/api.ts";
import { call, json, token } from "./support.ts";

describe("pagination", () => {
  it("defaults to page 1 with 20 records", async () => {
    const body = await json(await call("/v1/data/universities"));
    expect(body.meta).toEqual({ total: 26, page: 1, per_page: 20 });
    expect(body.data).toHaveLength(20);
  });

  it("slices any page and page size out of the same ordered list", async () => {
    const all = (await json(await call("/v1/data/subjects"))).data.length;
    expect(all).toBeGreaterThan(90);
    const everything = (await json(await call("/v1/data/universities?per_page=100"))).data;
    expect(everything).toHaveLength(26);
    for (const [page, perPage] of [
      [1, 1],
      [2, 7],
      [4, 7],
      [3, 10],
      [26, 1],
    ] as const) {
      const body = await json(await call(`/v1/data/universities?page=${page}&per_page=${perPage}`));
      expect(body.meta).toEqual({ total: 26, page, per_page: perPage });
      expect(body.data).toEqual(everything.slice((page - 1) * perPage, page * perPage));
    }
  });

  it("answers a page past the end with 200 and no records", async () => {
    const body = await json(await call("/v1/data/universities?page=27&per_page=1"));
    expect(body).toEqual({ data: [], meta: { total: 26, page: 27, per_page: 1 } });
    expect((await json(await call("/v1/data/universities?page=999999"))).data).toEqual([]);
  });

  it("accepts per_page up to 100 and answers 400 for anything else", async () => {
    expect((await call("/v1/data/qualifications?per_page=100")).status).toBe(200);
    for (const query of [
      "page=0",
      "page=-1",
      "page=abc",
      "page=1.5",
      "per_page=0",
      "per_page=101",
      "per_page=500",
      "per_page=",
      "page=",
      "page=01",
    ]) {
      const response = await call(`/v1/data/universities?${query}`);
      expect(response.status, query).toBe(400);
      const body = ErrorBody.parse(await json(response));
      expect(body.error.code).toBe("invalid_pagination");
      expect(body.error.details?.[0]?.path).toBe(query.split("=")[0]);
    }
  });
});

describe("errors", () => {
  it("answers unknown paths with a JSON 404", async () => {
    // `/` leads to the reference page (documents.spec.ts).
    for (const path of ["/v1", "/v1/data", "/v1/data/unicorns", "/v1/data/universities/", "/v2/data/universities"]) {
      const response = await call(path);
      expect(response.status, path).toBe(404);
      expect(ErrorBody.parse(await json(response)).error.code).toBe("not_found");
    }
  });

  it("never serves internal files or paths outside the public documents", async () => {
    for (const path of [
      "/manifest.json",
      "/_internal/prospectus-documents.json",
      "/_internal/aps-compare.json",
      "/v1/data/universities.json",
      "/v1/data/universities/_list/0.json",
      "/v1/data/universities/university-of-cape-town.json",
      "/v1/data/universities/..%2Fmanifest",
      "/v1/data/universities/%2E%2E/%2E%2E/manifest.json",
      "/v1/data/qualifications/..%2F..%2Fmanifest.json/requirements",
      "/v1/data/universities/UNIVERSITY-OF-CAPE-TOWN",
    ]) {
      const response = await call(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    }
  });

  it("answers other methods with 405 and Allow", async () => {
    const put = await call("/v1/data/universities", { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(ErrorBody.parse(await json(put)).error.code).toBe("method_not_allowed");
    const get = await call("/v1/id/parse");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("answers a POST without application/json with 415", async () => {
    const response = await call("/v1/id/parse", { method: "POST", body: '{"id_number":"8001015009087"}', headers: { "content-type": "text/plain" } });
    expect(response.status).toBe(415);
    expect(ErrorBody.parse(await json(response)).error.code).toBe("unsupported_media_type");
  });

  it("answers a body over 16 KiB with 413", async () => {
    const body = JSON.stringify({ id_number: "8001015009087", padding: "x".repeat(17 * 1024) });
    const response = await call("/v1/id/parse", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(ErrorBody.parse(await json(response)).error.code).toBe("payload_too_large");
  });

  it("answers malformed JSON with 400", async () => {
    for (const path of ["/v1/id/parse", "/v1/data/aps-calculator"]) {
      const response = await call(path, { method: "POST", body: '{"id_number": ', headers: { "content-type": "application/json" } });
      expect(response.status).toBe(400);
      expect(ErrorBody.parse(await json(response)).error.code).toBe("malformed_json");
    }
  });
});

describe("HEAD, caching and versions", () => {
  it("answers HEAD like GET without a body", async () => {
    const get = await call("/v1/data/provinces");
    const head = await call("/v1/data/provinces", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(await head.text()).toBe("");
  });

  it("sends ETag, private Cache-Control and the data version, and answers If-None-Match with 304", async () => {
    const first = await call("/v1/data/universities?page=2&per_page=5");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/);
    expect(first.headers.get("cache-control")).toBe("private, max-age=120");
    expect(first.headers.get("x-data-version")).toMatch(/^[0-9a-f]{16}$/);
    const again = await call("/v1/data/universities?page=2&per_page=5", { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const weak = await call("/v1/data/universities?page=2&per_page=5", { headers: { "if-none-match": `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const otherPage = await call("/v1/data/universities?page=3&per_page=5", { headers: { "if-none-match": etag ?? "" } });
    expect(otherPage.status).toBe(200);
  });

  it("does not answer 304 without a valid token", async () => {
    const etag = (await call("/v1/data/provinces")).headers.get("etag") ?? "";
    expect((await call("/v1/data/provinces", { token: null, headers: { "if-none-match": etag } })).status).toBe(401);
  });
});

describe("CORS", () => {
  it("answers a preflight without a token for an allowed origin", async () => {
    const response = await call("/v1/data/universities", {
      token: null,
      method: "OPTIONS",
      headers: { origin: "https://portal.example.org", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://portal.example.org");
    expect(response.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect(response.headers.get("access-control-allow-headers")).toContain("Content-Type");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("gives no CORS grant to an origin that is not configured", async () => {
    const response = await call("/v1/data/universities", { token: null, method: "OPTIONS", headers: { origin: "https://evil.example.com" } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("adds CORS headers to answers and errors, so browsers can read them", async () => {
    const ok = await call("/v1/data/provinces", { headers: { origin: "https://careers.example.org" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://careers.example.org");
    expect(ok.headers.get("access-control-expose-headers")).toContain("ETag");
    const denied = await call("/v1/data/provinces", { token: null, headers: { origin: "https://careers.example.org" } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe("https://careers.example.org");
  });
});

describe("POST /v1/id/parse", () => {
  const post = (body: string, scopes = ["id_parser:use"]) =>
    token({ scopes }).then((t) => call("/v1/id/parse", { token: t, method: "POST", body, headers: { "content-type": "application/json" } }));

  it("parses an ID number with the id_parser:use scope", async () => {
    const response = await post(JSON.stringify({ id_number: " 8001015009087 " }));
    expect(response.status).toBe(200);
    const { data } = await json(response);
    expect(data).toMatchObject({
      id_number: " 8001015009087 ",
      valid: true,
      date_of_birth: "1980-01-01",
      gender: "male",
      citizenship: "citizen",
      luhn_valid: true,
      errors: [],
    });
  });

  it("answers 200 with the reasons for an invalid number", async () => {
    const { data } = await json(await post(JSON.stringify({ id_number: "8001015009088" })));
    expect(data).toMatchObject({ valid: false, luhn_valid: false, date_of_birth: "1980-01-01" });
    expect(data.errors).toContain("INVALID_CHECKSUM");
  });

  it("answers 422 when id_number is missing or not a string", async () => {
    for (const body of ["{}", '{"id_number": 8001015009087}', "[]", '"8001015009087"', "null"]) {
      const response = await post(body);
      expect(response.status, body).toBe(422);
      const error = ErrorBody.parse(await json(response)).error;
      expect(error.code).toBe("invalid_id_request");
      expect(error.details?.[0]?.path).toBe("id_number");
    }
  });

  it("answers 401 without a token and 403 without the scope", async () => {
    const body = JSON.stringify({ id_number: "8001015009087" });
    expect((await call("/v1/id/parse", { token: null, method: "POST", body, headers: { "content-type": "application/json" } })).status).toBe(401);
    expect((await post(body, ["universities:read"])).status).toBe(403);
  });
});
