// Issue 30, found by trying the Worker as an attacker would: claims that cannot reach a header, error bodies of
// bounded size, nosniff on every JSON answer, and a name search that folds compatibility forms (NFKD).
import { describe, expect, it } from "vitest";
import { ErrorBody } from "../../schema/api.ts";
import { call, json, token } from "./support.ts";

const PATH = "/v1/data/provinces";
const PORTAL = "https://portal.example.org";

describe("claims of a signed token", () => {
  const bad = ["\u0000", "\r\n", "\n", "é", "\u2028"];
  it("refuses (401) a claim holding a control or non-ASCII character, without putting it into any header", async () => {
    const cases: Record<string, unknown>[] = [];
    for (const c of bad) {
      cases.push({ env: `test${c}` }, { token_type: `secret${c}` }, { scope: `provinces:read${c}` }, { jti: `id${c}` }, { sub: `client${c}` });
      cases.push({ token_type: "pub", origins: [`${PORTAL}${c}`], scope: "provinces:read" });
    }
    for (const claims of cases) {
      const response = await call(PATH, { token: await token({ claims }), headers: { origin: PORTAL } });
      expect(response.status, JSON.stringify(claims)).toBe(401);
      expect(ErrorBody.parse(await json(response)).error.code).toBe("invalid_token");
      expect(response.headers.get("www-authenticate")).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it("refuses claims of the wrong type: token_type null is no secret token", async () => {
    for (const claims of [{ token_type: null }, { token_type: 1 }, { env: 1 }, { scope: ["provinces:read"] }, { jti: 5 }, { sub: {} }]) {
      const response = await call(PATH, { token: await token({ claims }) });
      expect(response.status, JSON.stringify(claims)).toBe(401);
      expect(ErrorBody.parse(await json(response)).error.code).toBe("invalid_token");
    }
    // The claims stay well-formed for an ordinary token.
    expect((await call(PATH, { token: await token({ claims: { token_type: "secret" } }) })).status).toBe(200);
  });
});

describe("error bodies", () => {
  it("list at most 20 problems in details, and count the rest in the message", async () => {
    const marks = Array.from({ length: 1_000 }, () => ({}));
    const body = JSON.stringify({ marks });
    const response = await call("/v1/data/aps-calculator/compare", {
      token: await token({ scopes: ["aps_calculator:use"] }),
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(422);
    const text = await response.text();
    const { error } = ErrorBody.parse(JSON.parse(text));
    expect(error.details).toHaveLength(20);
    expect(error.message).toMatch(/details lists the first 20 of \d+ problems; \d+ more not shown/);
    expect(text.length).toBeLessThan(body.length);
  });
});

describe("headers", () => {
  it("X-Content-Type-Options: nosniff on every answer, success or error, GET or POST", async () => {
    const answers = [
      await call(PATH),
      await call("/v1/data/nowhere"),
      await call(PATH, { token: null }),
      await call("/v1/data/aps-calculator/compare", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    ];
    for (const response of answers) expect(response.headers.get("x-content-type-options"), String(response.status)).toBe("nosniff");
  });
});

describe("name search", () => {
  it("folds with NFKD: fullwidth letters find what ASCII finds", async () => {
    const plain = await json(await call("/v1/data/universities?q=witwatersrand"));
    expect(plain.meta.total).toBeGreaterThan(0);
    const fullwidth = await json(await call(`/v1/data/universities?q=${encodeURIComponent("ＷＩＴＷＡＴＥＲＳＲＡＮＤ")}`));
    expect(fullwidth).toEqual(plain);
  });
});
