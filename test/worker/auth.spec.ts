import { describe, expect, it } from "vitest";
import { ErrorBody } from "../../schema/api.ts";
import { base64url, call, json, token } from "./support.ts";

const PATH = "/v1/data/provinces";

async function expect401(response: Response, code: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="sa-edu-data-api", error="invalid_token"/);
  const body = ErrorBody.parse(await json(response));
  expect(body.error).toMatchObject({ status: 401, code });
}

describe("authentication", () => {
  it("accepts a valid token", async () => {
    expect((await call(PATH)).status).toBe(200);
  });

  it("rejects a request without a token", async () => {
    await expect401(await call(PATH, { token: null }), "missing_token");
  });

  it("rejects an Authorization header that is not a bearer JWT", async () => {
    await expect401(await call(PATH, { token: null, headers: { authorization: "Basic dXNlcjpwYXNz" } }), "invalid_token");
    await expect401(await call(PATH, { token: "not-a-jwt" }), "invalid_token");
  });

  it("rejects an expired token", async () => {
    const expired = await token({ issuedAt: Math.floor(Date.now() / 1000) - 7200, expiresIn: 3600 });
    await expect401(await call(PATH, { token: expired }), "token_expired");
  });

  it("rejects a tampered token (payload changed, signature kept)", async () => {
    const [header, payload, signature] = (await token({ scopes: ["universities:read"] })).split(".");
    const claims = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    claims.scope = "provinces:read";
    await expect401(await call(PATH, { token: `${header}.${base64url(JSON.stringify(claims))}.${signature}` }), "invalid_token");
  });

  it("rejects an unsigned token (alg none)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: "none", typ: "JWT" }));
    const payload = base64url(JSON.stringify({ sub: "x", scope: "provinces:read", env: "test", iat: now, exp: now + 600, jti: "n" }));
    await expect401(await call(PATH, { token: `${header}.${payload}.` }), "invalid_token");
    await expect401(await call(PATH, { token: null, headers: { authorization: `Bearer ${header}.${payload}.` } }), "invalid_token");
  });

  it("rejects a token signed with a key this deployment does not trust", async () => {
    await expect401(await call(PATH, { token: await token({ key: "stranger" }) }), "invalid_token");
  });

  it("accepts tokens of every key in the key set, so keys can rotate", async () => {
    expect((await call(PATH, { token: await token({ key: "next" }) })).status).toBe(200);
  });

  it("rejects a token for another environment", async () => {
    await expect401(await call(PATH, { token: await token({ env: "live" }) }), "wrong_environment");
  });

  it("rejects a revoked token", async () => {
    await expect401(await call(PATH, { token: await token({ jti: "revoked-token-id" }) }), "token_revoked");
  });

  it("rejects a token without the required claims", async () => {
    for (const claim of ["env", "jti", "scope", "sub", "exp"]) {
      await expect401(await call(PATH, { token: await token({ omit: [claim] }) }), "invalid_token");
    }
  });

  it("answers 403 with the needed scope when the token lacks it", async () => {
    const response = await call(PATH, { token: await token({ scopes: ["universities:read"] }) });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sa-edu-data-api", error="insufficient_scope", scope="provinces:read"');
    expect((await json(response)).error).toMatchObject({ status: 403, code: "insufficient_scope" });
  });

  it("checks authentication before revealing whether a path exists", async () => {
    expect((await call("/v1/data/nothing-here", { token: null })).status).toBe(401);
    expect((await call("/v1/data/nothing-here")).status).toBe(404);
  });
});
