// Prospectus documents: every `url` the API lists leads to the document. The path answers without a
// token (a browser opens it from a link) with a redirect to the university's own copy, and nothing else
// under /assets/ is reachable.
import { describe, expect, it } from "vitest";
import { ErrorBody } from "../../schema/api.ts";
import { call, json, token } from "./support.ts";

describe("GET /assets/prospectuses/<slug>-<year>[-<part>].pdf", () => {
  it("redirects every listed prospectus to the university's own document, without a token", async () => {
    const scoped = await token({ scopes: ["prospectuses:read"] });
    const { data, meta } = await json(await call("/v1/data/prospectuses?per_page=100", { token: scoped }));
    expect(meta.total).toBeGreaterThanOrEqual(20);
    expect(new Set(data.map((p: { university_slug: string }) => p.university_slug)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(data.map((p: { url: string }) => p.url)).size).toBe(data.length);
    for (const prospectus of data) {
      const url = new URL(prospectus.url);
      // A prospectus published in parts (one per faculty) has a title and a path per part.
      const part = prospectus.title === null ? "" : "-[a-z0-9-]+";
      expect(url.pathname).toMatch(new RegExp(`^/assets/prospectuses/${prospectus.university_slug}-${prospectus.year}${part}\\.pdf$`));
      const response = await call(url.pathname, { token: null });
      expect(response.status, url.pathname).toBe(302);
      expect(response.headers.get("location")).toBe(prospectus.source_url);
      expect(prospectus.source_url).toMatch(/^https:\/\//);
    }
  });

  it("answers 404 for a prospectus that does not exist, and never serves anything else under /assets/", async () => {
    const missing = await call("/assets/prospectuses/university-of-atlantis-2027.pdf", { token: null });
    expect(missing.status).toBe(404);
    expect(ErrorBody.parse(await json(missing)).error.code).toBe("not_found");
    // Not a document route: the token is checked first (401 without one), then the path (404).
    for (const path of ["/assets/prospectuses/../manifest.json", "/assets/manifest.json", "/assets/_internal/aps/university-of-pretoria.json"]) {
      expect((await call(path, { token: null })).status, path).toBe(401);
      const withToken = await call(path);
      expect(withToken.status, path).toBe(404);
      expect(ErrorBody.parse(await json(withToken)).error.code).toBe("not_found");
    }
  });
});
