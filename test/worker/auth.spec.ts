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

  it("rejects a request without a token, with a challenge that has no error code (RFC 6750 section 3.1)", async () => {
    const response = await call(PATH, { token: null });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sa-edu-data-api"');
    expect(ErrorBody.parse(await json(response)).error).toMatchObject({ status: 401, code: "missing_token" });
  });

  it("answers 400 invalid_request to an Authorization header that is not `Bearer <token>` (RFC 6750 section 3.1)", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer\ta.b.c", "Token a.b.c"]) {
      const response = await call(PATH, { token: null, headers: { authorization } });
      expect(response.status, authorization).toBe(400);
      expect(response.headers.get("www-authenticate"), authorization).toMatch(
        /^Bearer realm="sa-edu-data-api", error="invalid_request", error_description="/,
      );
      expect(ErrorBody.parse(await json(response)).error, authorization).toMatchObject({ status: 400, code: "invalid_request" });
    }
  });

  it("rejects a bearer token that is not a JWT", async () => {
    await expect401(await call(PATH, { token: "not-a-jwt" }), "invalid_token");
  });

  it("takes the Bearer scheme in any case (RFC 9110 section 11.1)", async () => {
    const valid = await token();
    for (const scheme of ["bearer", "BEARER", "bEaReR"]) {
      expect((await call(PATH, { token: null, headers: { authorization: `${scheme} ${valid}` } })).status, scheme).toBe(200);
    }
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
