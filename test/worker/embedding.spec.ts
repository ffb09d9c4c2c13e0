// Embedding (issue 20): publishable tokens bound to origins, and rate limits per token and per client
// address, through the real Worker and Cloudflare's rate limiting binding as the local runtime (miniflare)
// implements it. test/worker/wrangler.jsonc sets small limits in ten-second periods: 20 requests per
// publishable token and 20 per address; the secret limit is high there, so its 429 is shown with the tight
// binding RATE_LIMIT_TIGHT (3 per 10 s) put in its place.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../functions/env.ts";
import { signToken, type TokenRequest } from "../../support/tokens.ts";
import { ErrorBody } from "../../schema/api.ts";
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";
import { BASE, call, callHandler, clientAddress, CURRENT_SIGNING_KEY, json, token } from "./support.ts";

const realEnv = env as unknown as Env & { RATE_LIMIT_TIGHT: RateLimit };
const PORTAL = "https://portal.example.org"; // in the test deployment's CORS_ORIGINS
const PATH = "/v1/data/provinces";

const publishable = (origins: string[] = [PORTAL], scopes = ["provinces:read", "high_schools:read", "aps_calculator:use"]) =>
  token({ scopes, claims: { token_type: "pub", origins } });

async function expectCode(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(ErrorBody.parse(await json(response)).error.code).toBe(code);
}

/** The parameters of one item of a RateLimit or RateLimit-Policy field: `"name";r=1;t=2` -> {name, r: 1, t: 2};
 * the item named `policy`, or the last one (a publishable request lists its visitor's quota, then the token's). */
function fieldOf(value: string | null, policy?: string): Record<string, string | number> {
  const items = (value ?? "").split(",").map((item) => item.trim());
  const item = (policy === undefined ? items.at(-1) : items.find((i) => i.startsWith(`"${policy}";`))) ?? "";
  const [name = "", ...parameters] = item.split(";");
  return Object.fromEntries([["name", name.replace(/"/g, "")], ...parameters.map((p) => p.split("=")).map(([k, v]) => [k, Number(v)])]);
}

/** Waits until the current ten-second period has at least `seconds` left, so a run of requests stays in one period. */
async function withinOnePeriod(seconds: number) {
  const left = 10 - ((Date.now() / 1000) % 10);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}

describe("publishable tokens", () => {
  it("are accepted from a page on one of their origins, and the answer names that origin", async () => {
    const response = await call(PATH, { token: await publishable([PORTAL, "https://careers.example.org"]), headers: { origin: PORTAL } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(response.headers.get("vary")).toMatch(/Origin/);
    expect(response.headers.get("access-control-expose-headers")).toMatch(/RateLimit, RateLimit-Policy, Retry-After/);
    expect((await json(response)).data).toHaveLength(9);
  });

  it("name the origin even where the deployment allows every origin (CORS_ORIGINS *)", async () => {
    const open = { ...realEnv, CORS_ORIGINS: "*" };
    const request = (headers: Record<string, string>) => callHandler(new Request(`${BASE}${PATH}`, { headers }), open);
    const pub = await request({
      authorization: `Bearer ${await publishable(["https://school-finder.example"])}`,
      origin: "https://school-finder.example",
    });
    expect(pub.status).toBe(200);
    expect(pub.headers.get("access-control-allow-origin")).toBe("https://school-finder.example");
    const secret = await request({ authorization: `Bearer ${await token()}`, origin: "https://school-finder.example" });
    expect(secret.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("are refused (403 origin_not_allowed) from another origin or without an Origin header", async () => {
    const pub = await publishable();
    const elsewhere = await call(PATH, { token: pub, headers: { origin: "https://copycat.example" } });
    await expectCode(elsewhere, 403, "origin_not_allowed");
    const noOrigin = await call(PATH, { token: pub });
    await expectCode(noOrigin, 403, "origin_not_allowed");
    // Same scheme and host on another port, or http for https, is another origin.
    await expectCode(await call(PATH, { token: pub, headers: { origin: "http://portal.example.org" } }), 403, "origin_not_allowed");
    await expectCode(await call(PATH, { token: pub, headers: { origin: `${PORTAL}:8443` } }), 403, "origin_not_allowed");
  });

  it("still need the endpoint's scope", async () => {
    const response = await call("/v1/data/bursaries", { token: await publishable(), headers: { origin: PORTAL } });
    await expectCode(response, 403, "insufficient_scope");
    expect(response.headers.get("access-control-allow-origin")).toBe(PORTAL);
  });

  it("work for the two computations, posted from the page", async () => {
    const response = await call("/v1/data/aps-calculator/compare", {
      token: await publishable(),
      method: "POST",
      headers: { origin: PORTAL, "content-type": "application/json" },
      body: JSON.stringify({
        marks: [
          { subject_slug: "mathematics", percentage: 70 },
          { subject_slug: "english-home-language", percentage: 65 },
        ],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(PORTAL);
  });

  it("minted as `npm run token -- --publishable` mints them (support/tokens.ts), work from their origin; a write-like or unknown scope is refused at minting", async () => {
    const request = (scopes: string[]): TokenRequest => ({ scopes, env: "test", expiresInSeconds: 600, sub: "partner", origins: [PORTAL] });
    const minted = await signToken(request(["provinces:read"]), CURRENT_SIGNING_KEY);
    expect((await call(PATH, { token: minted, headers: { origin: PORTAL } })).status).toBe(200);
    await expectCode(await call(PATH, { token: minted, headers: { origin: "https://copycat.example" } }), 403, "origin_not_allowed");
    for (const scope of ["provinces:write", "universities:delete", "qualifications:requirements", "everything"]) {
      await expect(signToken(request(["provinces:read", scope]), CURRENT_SIGNING_KEY), scope).rejects.toThrow(/refusing to mint/);
    }
  });

  it("are refused (401) when signed with claims the minting CLI refuses: a non-publishable or unknown scope, no origins, bad origins", async () => {
    const forged = [
      { scopes: ["provinces:read", "qualifications:requirements"], claims: { token_type: "pub", origins: [PORTAL] } },
      { scopes: ["provinces:write"], claims: { token_type: "pub", origins: [PORTAL] } },
      { scopes: ["provinces:read"], claims: { token_type: "pub" } },
      { scopes: ["provinces:read"], claims: { token_type: "pub", origins: [`${PORTAL}/`] } },
      { scopes: ["provinces:read"], claims: { token_type: "pub", origins: "*" } },
      { scopes: ["provinces:read"], claims: { token_type: "secret", origins: [PORTAL] } },
      { scopes: ["provinces:read"], claims: { token_type: "browser" } },
    ];
    for (const options of forged) {
      const response = await call(PATH, { token: await token(options), headers: { origin: PORTAL } });
      await expectCode(response, 401, "invalid_token");
    }
  });

  it("get a preflight answer before any token is seen, for a deployment origin", async () => {
    const response = await call("/v1/data/aps-calculator/compare", {
      token: null,
      method: "OPTIONS",
      headers: { origin: PORTAL, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(response.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    // A preflight is not counted: it carries no token, and browsers cache it for a day.
    expect(response.headers.get("ratelimit")).toBeNull();
  });

  it("keep working for secret tokens, from anywhere and without an Origin", async () => {
    expect((await call(PATH)).status).toBe(200);
    expect((await call(PATH, { headers: { origin: "https://copycat.example" } })).status).toBe(200);
  });
});

describe("rate limits", () => {
  it("count a publishable token's requests by its jti, then answer 429 with Retry-After, and reset when the period ends", {
    timeout: 30_000,
  }, async () => {
    const pub = await publishable();
    const other = await publishable();
    const get = (t: string) => call(PATH, { token: t, headers: { origin: PORTAL } });
    await withinOnePeriod(6);
    for (let n = 1; n <= 20; n++) {
      const response = await get(pub);
      expect(response.status, `request ${n}`).toBe(200);
      expect(fieldOf(response.headers.get("ratelimit-policy"))).toEqual({ name: "publishable", q: 20, w: 10 });
      const field = fieldOf(response.headers.get("ratelimit"));
      expect(field).toMatchObject({ name: "publishable", r: 20 - n });
      expect(field.t).toBeGreaterThanOrEqual(1);
      expect(field.t).toBeLessThanOrEqual(10);
    }
    const refused = await get(pub);
    await expectCode(refused, 429, "rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(fieldOf(refused.headers.get("ratelimit"))).toEqual({ name: "publishable", r: 0, t: retryAfter });
    // The page can read the 429 and its headers: CORS names the origin and exposes them.
    expect(refused.headers.get("access-control-allow-origin")).toBe(PORTAL);
    // Another token of the same site has a count of its own.
    expect((await get(other)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    const again = await get(pub);
    expect(again.status).toBe(200);
    expect(fieldOf(again.headers.get("ratelimit"))).toMatchObject({ r: 19 });
  });

  it("give each visitor (client address) of a publishable token a quota of its own: one address's flood leaves the others at 200", {
    timeout: 30_000,
  }, async () => {
    // Issue 30: a publishable token is public; 120 requests with a spoofed Origin from one address used to
    // answer 429 to every real visitor of the partner's site for the rest of the minute.
    const pub = await publishable();
    const flooder = clientAddress();
    const visitor = clientAddress();
    const from = (address: string) => call(PATH, { token: pub, headers: { origin: PORTAL, "cf-connecting-ip": address } });
    await withinOnePeriod(7);
    for (let n = 1; n <= 10; n++) {
      const response = await from(flooder);
      expect(response.status, `request ${n}`).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"visitor";q=10;w=10, "publishable";q=20;w=10');
      expect(fieldOf(response.headers.get("ratelimit"), "visitor")).toMatchObject({ r: 10 - n });
      expect(fieldOf(response.headers.get("ratelimit"), "publishable")).toMatchObject({ r: 20 - n });
    }
    // The flood goes on well past the token's ceiling of 20: refused per address, and not counted against the token.
    for (let n = 11; n <= 40; n++) {
      const refused = await from(flooder);
      await expectCode(refused, 429, "rate_limited");
      expect(fieldOf(refused.headers.get("ratelimit"))).toMatchObject({ name: "visitor", r: 0 });
    }
    const other = await from(visitor);
    expect(other.status).toBe(200);
    expect(fieldOf(other.headers.get("ratelimit"), "visitor")).toMatchObject({ r: 9 });
    expect(fieldOf(other.headers.get("ratelimit"), "publishable")).toMatchObject({ r: 9 });
    // The APS widget's POST from another visitor too.
    const post = await call("/v1/data/aps-calculator", {
      token: pub,
      method: "POST",
      headers: { origin: PORTAL, "cf-connecting-ip": clientAddress(), "content-type": "application/json" },
      body: JSON.stringify({ university_slug: "university-of-pretoria", marks: LEARNER_A_MARKS }),
    });
    expect(post.status).toBe(200);
  });

  it("count requests without a valid token by client address (CF-Connecting-IP), the reference page too", async () => {
    const address = clientAddress();
    const from = (headers: Record<string, string> = {}) => ({ headers: { "cf-connecting-ip": address, ...headers } });
    await withinOnePeriod(5);
    const document = await call("/docs", { token: null, ...from() });
    expect(document.status).toBe(200);
    expect(fieldOf(document.headers.get("ratelimit-policy"))).toEqual({ name: "anonymous", q: 20, w: 10 });
    expect(fieldOf(document.headers.get("ratelimit"))).toMatchObject({ r: 19 });
    // A publishable token used from a site not its own is no valid token for this request: counted by address.
    const copied = await call(PATH, { token: await publishable(), ...from({ origin: "https://copycat.example" }) });
    await expectCode(copied, 403, "origin_not_allowed");
    expect(fieldOf(copied.headers.get("ratelimit"))).toMatchObject({ name: "anonymous", r: 18 });
    for (let n = 3; n <= 20; n++) await expectCode(await call(PATH, { token: null, ...from() }), 401, "missing_token");
    const refused = await call(PATH, { token: "not.a.token", ...from() });
    await expectCode(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another address, and a valid token from the same address, are not held back.
    await expectCode(await call(PATH, { token: null }), 401, "missing_token");
    expect((await call(PATH, from())).status).toBe(200);
  });

  it("count a secret token by its jti in its own binding (a tight one here: 3 per 10 s)", async () => {
    const tight = {
      ...realEnv,
      RATE_LIMIT_SECRET: realEnv.RATE_LIMIT_TIGHT,
      RATE_LIMITS: { ...realEnv.RATE_LIMITS, secret: { limit: 3, period: 10 } },
    };
    const secret = await token();
    const get = async (t: string) => callHandler(new Request(`${BASE}${PATH}`, { headers: { authorization: `Bearer ${t}` } }), tight);
    await withinOnePeriod(5);
    for (let n = 1; n <= 3; n++) {
      const response = await get(secret);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"secret";q=3;w=10');
      expect(fieldOf(response.headers.get("ratelimit")).r).toBe(3 - n);
    }
    await expectCode(await get(secret), 429, "rate_limited");
    expect((await get(await token())).status).toBe(200);
  });

  it("let a request through when the binding fails (a limiter outage must not take the API down)", async () => {
    const failing = { limit: () => Promise.reject(new Error("rate limiting unavailable")) } as unknown as RateLimit;
    const response = await callHandler(new Request(`${BASE}${PATH}`, { headers: { authorization: `Bearer ${await token()}` } }), {
      ...realEnv,
      RATE_LIMIT_SECRET: failing,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toMatch(/^"secret";/);
  });

  it("fail closed: a deployment without its rate limit bindings answers 500 misconfigured", async () => {
    // A deployment whose wrangler.jsonc lost the binding: what the generated Env says cannot happen.
    const { RATE_LIMIT_SECRET: _, ...without } = realEnv;
    const response = await callHandler(
      new Request(`${BASE}${PATH}`, { headers: { authorization: `Bearer ${await token()}` } }),
      without as unknown as Env,
    );
    await expectCode(response, 500, "misconfigured");
  });
});
