// Faults found under load and by an attacker (issue 12), each pinned by a test that failed before the fix.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../../functions/env.ts";
import { ErrorBody } from "../../schema/api.ts";
import { BASE, call, callHandler as fetchWith, json, token } from "./support.ts";

const realEnv = env as unknown as Env;

/** An ASSETS binding that answers through the real one, except that the reads `hang` picks never finish. */
function assetsThatHang(hang: (path: string, nth: number) => boolean): { binding: Fetcher; reads: string[] } {
  const reads: string[] = [];
  const binding = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      reads.push(path);
      if (hang(path, reads.filter((p) => p === path).length)) return new Promise<Response>(() => {});
      return realEnv.ASSETS.fetch(request);
    },
  } as unknown as Fetcher;
  return { binding, reads };
}

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), ms))]);

describe("caches across requests hold plain values, never another request's I/O", () => {
  it("a request whose manifest read never finishes does not hold up the requests that come after it", async () => {
    // The first request's read of the manifest hangs (as when its client goes away mid-read). Before the
    // fix the next requests awaited that same cached promise and hung with it.
    const { binding, reads } = assetsThatHang((path, nth) => path === "/manifest.json" && nth === 1);
    const testEnv = { ...realEnv, ASSETS: binding };
    const authorization = `Bearer ${await token()}`;
    const request = (path: string) => fetchWith(new Request(`${BASE}${path}`, { headers: { authorization } }), testEnv);
    const first = request("/v1/data/universities?per_page=3");
    await new Promise((resolve) => setTimeout(resolve, 10));
    const following = await withTimeout(
      Promise.all(["/v1/data/provinces", "/v1/data/universities?page=2&per_page=5", "/v1/data/subjects"].map(request)),
      5_000,
    );
    expect(following).not.toBe("timed out");
    for (const response of following as Response[]) {
      expect(response.status).toBe(200);
      expect((await json(response)).data.length).toBeGreaterThan(0);
    }
    expect(reads.filter((p) => p === "/manifest.json").length).toBeGreaterThanOrEqual(2);
    void first;
  });

  it("interleaved concurrent requests across a manifest expiry all answer 200 with the right records", async () => {
    const authorization = `Bearer ${await token()}`;
    const expected = (await json(await call("/v1/data/universities?per_page=100"))).data;
    const { binding } = assetsThatHang(() => false);
    const testEnv = { ...realEnv, ASSETS: binding };
    const realNow = Date.now;
    let offset = 0;
    Date.now = () => realNow() + offset;
    try {
      for (let round = 0; round < 4; round++) {
        offset += 11_000; // past the manifest's 10 s lifetime: every round starts with a re-read
        const responses = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            fetchWith(new Request(`${BASE}/v1/data/universities?page=${(i % 5) + 1}&per_page=5`, { headers: { authorization } }), testEnv),
          ),
        );
        for (const [i, response] of responses.entries()) {
          expect(response.status).toBe(200);
          const page = (i % 5) + 1;
          expect((await json(response)).data).toEqual(expected.slice((page - 1) * 5, page * 5));
        }
      }
    } finally {
      Date.now = realNow;
    }
  });
});

describe("tokens issued in the future or valid for too long", () => {
  const now = () => Math.floor(Date.now() / 1000);

  it("refuses a token issued an hour or ten years ahead", async () => {
    for (const ahead of [3_600, 10 * 365 * 86_400]) {
      const response = await call("/v1/data/provinces", { token: await token({ issuedAt: now() + ahead, expiresIn: 3_600 }) });
      expect(response.status, `iat +${ahead} s`).toBe(401);
      const body = ErrorBody.parse(await json(response));
      expect(body.error.code).toBe("invalid_token");
      expect(body.error.message).toContain("issued in the future");
    }
  });

  it("accepts a token issued within the 30 s clock tolerance", async () => {
    expect((await call("/v1/data/provinces", { token: await token({ issuedAt: now() + 20 }) })).status).toBe(200);
  });

  it("refuses a token whose lifetime exceeds the maximum (default 400 days)", async () => {
    const hundredYears = await token({ expiresIn: 100 * 365 * 86_400 });
    const response = await call("/v1/data/provinces", { token: hundredYears });
    expect(response.status).toBe(401);
    expect(ErrorBody.parse(await json(response)).error.message).toContain("at most 400 days");
    expect((await call("/v1/data/provinces", { token: await token({ expiresIn: 399 * 86_400 }) })).status).toBe(200);
  });

  it("takes the maximum lifetime from TOKEN_MAX_LIFETIME_DAYS", async () => {
    const request = async (days: number) =>
      fetchWith(new Request(`${BASE}/v1/data/provinces`, { headers: { authorization: `Bearer ${await token({ expiresIn: days * 86_400 })}` } }), {
        ...realEnv,
        TOKEN_MAX_LIFETIME_DAYS: "30",
      });
    expect((await request(29)).status).toBe(200);
    expect((await request(31)).status).toBe(401);
  });
});

describe("settings are parsed once per isolate, and a bad one is a 500 misconfigured", () => {
  const request = async (settings: Record<string, string>, path = "/v1/data/provinces") =>
    fetchWith(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${await token()}` } }), { ...realEnv, ...settings });

  it("answers 500 misconfigured, logged once, for a CACHE_MAX_AGE or TOKEN_MAX_LIFETIME_DAYS that is not a whole number", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const settings of [{ CACHE_MAX_AGE: "abc" }, { TOKEN_MAX_LIFETIME_DAYS: "0" }] as Record<string, string>[]) {
        for (const path of ["/v1/data/provinces", "/v1/openapi.json"]) {
          const response = await request(settings, path);
          expect(response.status, JSON.stringify(settings)).toBe(500);
          expect(ErrorBody.parse(await json(response)).error.code).toBe("misconfigured");
        }
      }
      expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([
        expect.stringContaining('CACHE_MAX_AGE must be a whole number of at least 0; it is "abc"'),
        expect.stringContaining('TOKEN_MAX_LIFETIME_DAYS must be a whole number of at least 1; it is "0"'),
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it("uses CACHE_MAX_AGE in Cache-Control", async () => {
    expect((await request({ CACHE_MAX_AGE: "60" })).headers.get("cache-control")).toBe("private, max-age=60");
  });
});

describe("URLs given to clients are never built from the Host header in a deployment", () => {
  const prospectuses = async (origin: string, assetUrl: string) =>
    fetchWith(new Request(`${origin}/v1/data/prospectuses?per_page=2`, { headers: { authorization: `Bearer ${await token()}` } }), {
      ...realEnv,
      ASSET_URL: assetUrl,
    });

  it("answers 500 misconfigured instead of reflecting a foreign Host when ASSET_URL is empty", async () => {
    const response = await prospectuses("http://evil.example", "");
    expect(response.status).toBe(500);
    const body = ErrorBody.parse(await json(response));
    expect(body.error.code).toBe("misconfigured");
    expect(JSON.stringify(body)).not.toContain("evil.example");
  });

  it("lets a loopback origin stand in for an empty ASSET_URL (local development)", async () => {
    for (const origin of ["http://127.0.0.1:8787", "http://localhost:8787"]) {
      const response = await prospectuses(origin, "");
      expect(response.status).toBe(200);
      for (const p of (await json(response)).data) expect(p.url.startsWith(`${origin}/assets/prospectuses/`)).toBe(true);
    }
  });

  it("uses ASSET_URL whatever the Host says", async () => {
    const response = await prospectuses("http://evil.example", "https://docs.example.org/mirror/");
    expect(response.status).toBe(200);
    for (const p of (await json(response)).data) expect(p.url.startsWith("https://docs.example.org/mirror/prospectuses/")).toBe(true);
  });
});
