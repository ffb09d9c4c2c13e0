// Minting tokens (support/tokens.ts, scripts/token.ts): secret and publishable tokens, and what is refused at
// minting: a publishable token with a scope that is not publishable (a write-like or unknown one, or
// qualifications:requirements), without origins, or with origins not written as a browser sends them.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLISHABLE_SCOPES, SCOPES } from "../../domain/scopes.ts";
import { claimShapeProblems, maxLifetimeDays, originProblem, tokenKindOf } from "../../domain/tokens.ts";
import { newSigningKey, type SigningKey } from "../../support/signing-keys.ts";
import { signToken, tokenRequestProblems, type TokenRequest } from "../../support/tokens.ts";
import { ROOT } from "../../support/test-dataset.ts";

const run = promisify(execFile);
let key: SigningKey;

beforeAll(async () => {
  key = await newSigningKey("tokens-test");
});

/** `npm run token -- ...args` with a fresh key (TOKEN_SIGNING_KEY), so the test never touches .keys/. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      // tsx as Node's loader, one process (its command line starts Node twice), as commands.test.ts runs commands.
      ["--import", "tsx", path.join(ROOT, "scripts", "token.ts"), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, TOKEN_SIGNING_KEY: JSON.stringify(key) },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const publishable = (scopes: string[], origins = ["https://a.example"]): TokenRequest => ({
  scopes,
  env: "test",
  expiresInSeconds: 600,
  sub: "partner",
  origins,
});

describe("publishable scopes", () => {
  it("are every *:read scope and the two computations, and not qualifications:requirements", () => {
    for (const scope of SCOPES.filter((s) => s.endsWith(":read"))) expect(PUBLISHABLE_SCOPES).toContain(scope);
    expect(PUBLISHABLE_SCOPES).toContain("high_schools:read");
    expect(PUBLISHABLE_SCOPES).toContain("aps_calculator:use");
    expect(PUBLISHABLE_SCOPES).toContain("id_parser:use");
    expect(PUBLISHABLE_SCOPES).not.toContain("qualifications:requirements");
  });
});

describe("origins", () => {
  it("are accepted only as a browser writes them in Origin", () => {
    for (const good of ["https://a.example", "http://127.0.0.1:8788", "https://school-finder.example:8443"])
      expect(originProblem(good), good).toBeNull();
    for (const bad of [
      "https://a.example/",
      "https://a.example/page",
      "https://A.example",
      "https://a.example:443",
      "a.example",
      "*",
      "null",
      "ftp://a.example",
      "",
    ]) {
      expect(originProblem(bad), bad).not.toBeNull();
    }
  });
});

describe("token kinds from claims", () => {
  it("a token without token_type is a secret token (tokens minted before publishable ones existed)", () => {
    expect(tokenKindOf({ scope: "bursaries:read" })).toEqual({ kind: { type: "secret" } });
    expect(tokenKindOf({ scope: "qualifications:requirements", token_type: "secret" })).toEqual({ kind: { type: "secret" } });
  });

  it("refuses token_type null (only an absent token_type means secret), and claims of the wrong shape, naming the claim only", () => {
    expect(tokenKindOf({ token_type: null })).toHaveProperty("problems");
    const good = { sub: "partner a", jti: "j-1", env: "test", scope: "provinces:read bursaries:read" };
    expect(claimShapeProblems(good)).toEqual([]);
    for (const [claim, value] of [
      ["env", "test\r\nx: y"],
      ["jti", "a\u0000b"],
      ["scope", "provinces:read\n"],
      ["sub", 7],
      ["token_type", null],
      ["origins", ["https://a.example\r"]],
    ] as const) {
      const problems = claimShapeProblems({ ...good, [claim]: value });
      expect(problems, claim).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^${claim} must`));
      expect(problems[0]).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it("refuses origins on a secret token, an unknown token_type, and publishable tokens breaking the rules", () => {
    expect(tokenKindOf({ token_type: "secret", origins: ["https://a.example"] })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "admin" })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:read" })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:read", origins: [] })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:read", origins: ["https://a.example", "https://a.example"] })).toHaveProperty(
      "problems",
    );
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:read", origins: "https://a.example" })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:write", origins: ["https://a.example"] })).toHaveProperty("problems");
    expect(tokenKindOf({ token_type: "pub", scope: "provinces:read", origins: ["https://a.example"] })).toEqual({
      kind: { type: "pub", origins: ["https://a.example"] },
    });
  });
});

describe("minting", () => {
  it("signs a publishable token with token_type pub and its origins, and a secret token with token_type secret", async () => {
    const pub = decodeJwt(await signToken(publishable(["high_schools:read", "aps_calculator:use"], ["https://a.example", "https://b.example"]), key));
    expect(pub).toMatchObject({
      token_type: "pub",
      origins: ["https://a.example", "https://b.example"],
      scope: "high_schools:read aps_calculator:use",
      env: "test",
    });
    const secret = decodeJwt(await signToken({ scopes: ["qualifications:requirements"], env: "test", expiresInSeconds: 600, sub: "server" }, key));
    expect(secret).toMatchObject({ token_type: "secret", scope: "qualifications:requirements" });
    expect(secret.origins).toBeUndefined();
  });

  it("refuses a publishable token with a write-like, unknown or non-publishable scope", async () => {
    for (const scope of ["universities:write", "qualifications:requirements", "admin"]) {
      expect(tokenRequestProblems(publishable(["universities:read", scope])).join(" "), scope).toContain(scope);
      await expect(signToken(publishable([scope]), key), scope).rejects.toThrow(/refusing to mint/);
    }
  });

  it("refuses a lifetime longer than the deployment accepts, and one of no time at all", () => {
    const secret = (expiresInSeconds: number): TokenRequest => ({ scopes: ["universities:read"], env: "test", expiresInSeconds, sub: "s" });
    expect(tokenRequestProblems(secret(400 * 86_400))).toEqual([]);
    expect(tokenRequestProblems(secret(400 * 86_400 + 1)).join(" ")).toMatch(/at most 400 days/);
    expect(tokenRequestProblems(secret(30 * 86_400), 7).join(" ")).toMatch(/at most 7 days/);
    expect(tokenRequestProblems(secret(0)).join(" ")).toMatch(/more than 0/);
    expect(maxLifetimeDays(undefined)).toBe(400);
    expect(maxLifetimeDays("30")).toBe(30);
    expect(maxLifetimeDays("nonsense")).toBe(400);
  });

  it("on the command line: prints a publishable token, and refuses what it must with exit code 2", async () => {
    const ok = await cli("--publishable", "--origins", "https://a.example,https://b.example", "--scopes", "high_schools:read,provinces:read");
    expect(ok.code).toBe(0);
    expect(decodeJwt(ok.stdout.trim())).toMatchObject({
      token_type: "pub",
      origins: ["https://a.example", "https://b.example"],
      scope: "high_schools:read provinces:read",
    });

    const longest = await cli("--scopes", "universities:read", "--expires-in", "400d");
    expect(longest.code).toBe(0);
    const claims = decodeJwt(longest.stdout.trim());
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(400 * 86_400);

    const refusals: [string[], RegExp][] = [
      [
        ["--publishable", "--origins", "https://a.example", "--scopes", "universities:read,universities:write"],
        /unknown scope\(s\) universities:write/,
      ],
      [
        ["--publishable", "--origins", "https://a.example", "--scopes", "qualifications:requirements"],
        /only the \*:read scopes.*not qualifications:requirements/,
      ],
      [["--publishable", "--scopes", "universities:read"], /needs --origins/],
      [["--origins", "https://a.example", "--scopes", "universities:read"], /add --publishable/],
      [["--publishable", "--origins", "https://a.example/widget", "--scopes", "universities:read"], /use 'https:\/\/a.example'/],
      // What the Worker answers 401 to (TOKEN_MAX_LIFETIME_DAYS is 400 in wrangler.jsonc, both environments).
      [["--scopes", "universities:read", "--expires-in", "500d"], /at most 400 days.*not 500 days/],
      [["--scopes", "universities:read", "--expires-in", "0s"], /more than 0/],
      [["--scopes", "universities:read,universities:write"], /unknown scope\(s\) universities:write/],
      [["--scopes", "admin"], /unknown scope\(s\) admin/],
    ];
    const answers = await Promise.all(refusals.map(([args]) => cli(...args)));
    for (const [i, [args, message]] of refusals.entries()) {
      const refused = answers[i] ?? { code: 0, stdout: "", stderr: "" };
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toMatch(message);
    }
  });
});
