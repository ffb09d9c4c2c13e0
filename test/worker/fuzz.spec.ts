// Property-based fuzzing of the real Worker in workerd: hostile and random paths, query strings, headers,
// tokens and bodies. Whatever arrives: never a 5xx, always our JSON error body with the status its code
// documents (schema/errors.ts), and for valid inputs the same result as the pure domain function; under npm run
// fuzz, also an answer within a time bound. Bounded: FUZZ_RUNS runs per property (npm test: 40; npm run fuzz --
// --runs N).
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apsResultOf } from "../../domain/aps/request.ts";
import type { ApsUniversityDocument } from "../../domain/aps/scheme.ts";
import { parseIdNumber } from "../../domain/id-number.ts";
import { todayInJohannesburg } from "../../lib/dates.ts";
import { ErrorBody } from "../../schema/api.ts";
import { ERROR_STATUS } from "../../schema/errors.ts";
import { BASE, base64url, callDirect as call, json, token } from "./support.ts";
import { LIST_QUERY_PARAMETERS } from "../../schema/query.ts";

const RUNS = Number((env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? 40);
/**
 * The time bound on an answer, checked by npm run fuzz alone (FUZZ_TIME_BOUND_MS, 2,000 there), which a person runs
 * on a quiet machine: workerd's clock stands still while code runs and moves only across I/O, so the figure is mostly
 * the time the asset reads waited, which another suite on the same two cores can stretch past any bound. npm test
 * sets none: its verdicts must not depend on the machine's load.
 */
const TIME_BOUND_MS = Number((env as unknown as { FUZZ_TIME_BOUND_MS?: string }).FUZZ_TIME_BOUND_MS || Number.POSITIVE_INFINITY);
const settings = { numRuns: RUNS, endOnFailure: true };

/** Every answer: no 5xx, in time, and an error is our JSON body whose status matches its code. */
async function expectWellFormed(response: Response, started: number, context: string): Promise<unknown> {
  expect(Date.now() - started, `${context}: answered in time`).toBeLessThan(TIME_BOUND_MS);
  expect(response.status, context).toBeLessThan(500);
  const text = await response.text();
  if (response.status === 304 || response.status === 302 || text === "") return null;
  expect(response.headers.get("content-type"), context).toBe("application/json; charset=utf-8");
  const body = JSON.parse(text);
  if (response.status >= 400) {
    const error = ErrorBody.parse(body).error;
    expect(error.status, context).toBe(response.status);
    expect(ERROR_STATUS[error.code], `${context}: ${error.code}`).toBe(response.status);
  }
  return body;
}

const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "data",
    "universities",
    "qualifications",
    "requirements",
    "high-schools",
    "bursaries",
    "fields-of-study",
    "postal-codes",
    "prospectuses",
    "provinces",
    "subjects",
    "id",
    "parse",
    "aps-calculator",
    "assets",
    "_internal",
    "_list",
    "_buckets",
    "manifest.json",
    "..",
    ".",
    "%2e%2e",
    "%2F",
    "0.json",
    "university-of-pretoria",
    "hs_0123456789abcdef",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.uuid(),
);
const path = fc.array(segment, { minLength: 0, maxLength: 6 }).map((parts) => `/${parts.join("/")}`);
const queryValue = fc.oneof(
  fc.constantFrom("1", "0", "-1", "100", "101", "01", "1.5", "", "abc", "9".repeat(30)),
  // Values the filters parse: coordinates, dates, slugs, enums, in and out of range.
  fc.constantFrom("-25.7479,28.2293", "91,0", "-25.7,", "2026-02-30", "2026-09-30", "gauteng", "engineering", "public", "7", "Health Sciences"),
  fc.string({ maxLength: 8 }),
);
// Every list's pagination and filter parameters (schema/query.ts), each also sent to lists that do not take it,
// and a few names no list takes.
const QUERY_PARAMETERS = [...new Set(Object.values(LIST_QUERY_PARAMETERS).flatMap((parameters) => Object.keys(parameters))), "x", "page[]", ""];
const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_PARAMETERS), queryValue), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"));
const LISTS = [
  "/v1/data/universities",
  "/v1/data/qualifications",
  "/v1/data/high-schools",
  "/v1/data/bursaries",
  "/v1/data/postal-codes",
  "/v1/data/prospectuses",
  "/v1/data/subjects",
  "/v1/data/provinces",
  "/v1/data/fields-of-study",
];

describe("fuzz: paths, query strings and methods", () => {
  it("answers any path and method without a 5xx, in our error shape", async () => {
    const authorization = `Bearer ${await token()}`;
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"), async (p, method) => {
        const started = Date.now();
        const response = await call(p, {
          token: null,
          method,
          headers: { authorization, "content-type": "application/json" },
          body: method === "GET" || method === "HEAD" ? undefined : "{}",
        });
        await expectWellFormed(response, started, `${method} ${p}`);
      }),
      settings,
    );
  });

  it("answers any query string on every list with 200 or a 400 naming the parameter", async () => {
    const authorization = `Bearer ${await token()}`;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LISTS), query, async (list, q) => {
        const started = Date.now();
        const response = await call(`${list}?${q}`, { token: null, headers: { authorization } });
        expect([200, 400], `${list}?${q}`).toContain(response.status);
        await expectWellFormed(response, started, `${list}?${q}`);
      }),
      settings,
    );
  });
});

describe("fuzz: headers and tokens", () => {
  const jwtPart = fc.string({ maxLength: 40 }).map(base64url);
  const authorization = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.tuple(jwtPart, jwtPart, jwtPart).map(([a, b, c]) => `Bearer ${a}.${b}.${c}`),
    fc.constantFrom("Bearer", "Bearer ", "bearer x.y.z", "Basic dXNlcjpwYXNz", `Bearer ${"a".repeat(5000)}.b.c`),
  );

  it("answers any Authorization header with 401, or 400 when it is not `Bearer <token>` (RFC 6750), and our body (never a 5xx)", async () => {
    await fc.assert(
      fc.asyncProperty(authorization, fc.constantFrom(...LISTS), async (header, list) => {
        const started = Date.now();
        const response = await call(list, { token: null, headers: { authorization: header } });
        const bearer = /^bearer +[A-Za-z0-9\-._~+/]+=*$/i.test(header.trim());
        expect(response.status, header).toBe(bearer ? 401 : 400);
        await expectWellFormed(response, started, header);
      }),
      settings,
    );
  });

  it("answers a token with tampered claims with 401", async () => {
    const claims = fc.record(
      { scope: fc.string({ maxLength: 30 }), env: fc.string({ maxLength: 6 }), exp: fc.integer(), iat: fc.integer() },
      { requiredKeys: [] },
    );
    const genuine = await token();
    const [header, , signature] = genuine.split(".");
    await fc.assert(
      fc.asyncProperty(claims, async (c) => {
        const started = Date.now();
        const forged = `${header}.${base64url(JSON.stringify({ sub: "x", jti: "y", ...c }))}.${signature}`;
        const response = await call("/v1/data/provinces", { token: forged });
        expect(response.status).toBe(401);
        await expectWellFormed(response, started, "tampered token");
      }),
      settings,
    );
  });

  it("answers any If-None-Match, Origin and Content-Type without a 5xx", async () => {
    const text = fc.string({ maxLength: 80 });
    await fc.assert(
      fc.asyncProperty(text, text, text, fc.constantFrom("GET", "POST", "OPTIONS"), async (etag, origin, contentType, method) => {
        const started = Date.now();
        const headers = { "if-none-match": etag, origin, "content-type": contentType };
        const p = method === "POST" ? "/v1/id/parse" : "/v1/data/universities";
        const response = await call(p, { method, headers, body: method === "POST" ? '{"id_number":"0002295009085"}' : undefined });
        await expectWellFormed(response, started, `${method} ${JSON.stringify(headers)}`);
      }),
      settings,
    );
  });
});

describe("fuzz: bodies of the two computations", () => {
  const post = async (p: string, body: string, contentType = "application/json") =>
    call(p, { method: "POST", headers: { "content-type": contentType }, body });

  it("answers any JSON or byte soup with 200, 400, 413, 415 or 422 in our shape", async () => {
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.string({ minLength: 16_000, maxLength: 17_000 }),
      fc.record({ id_number: fc.anything() }).map((v) => JSON.stringify(v) ?? "null"),
      fc.record({ university_slug: fc.anything(), marks: fc.anything() }).map((v) => JSON.stringify(v) ?? "null"),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/v1/id/parse", "/v1/data/aps-calculator"), body, async (p, b) => {
        const started = Date.now();
        const response = await post(p, b);
        expect([200, 400, 413, 422], `${p} ${b.slice(0, 80)}`).toContain(response.status);
        await expectWellFormed(response, started, `${p} ${b.slice(0, 80)}`);
      }),
      settings,
    );
  });

  it("parses any 13-character string exactly as the pure parser does", async () => {
    const idNumber = fc.oneof(fc.stringMatching(/^\d{13}$/), fc.string({ minLength: 13, maxLength: 13 }));
    await fc.assert(
      fc.asyncProperty(idNumber, async (id) => {
        const started = Date.now();
        const response = await post("/v1/id/parse", JSON.stringify({ id_number: id }));
        const body = (await expectWellFormed(response, started, id)) as { data: unknown };
        expect(response.status).toBe(200);
        expect(body.data).toEqual(JSON.parse(JSON.stringify(parseIdNumber(id, todayInJohannesburg(new Date())))));
      }),
      settings,
    );
  });

  it("scores any valid set of marks exactly as the pure engine does", async () => {
    const universities = (await json(await call("/v1/data/universities?per_page=100"))).data.map((u: { slug: string }) => u.slug);
    const subjects: string[] = (await json(await call("/v1/data/subjects"))).data.map((s: { slug: string }) => s.slug);
    const documents = new Map<string, ApsUniversityDocument>();
    for (const slug of universities) {
      const response = await (env as unknown as { ASSETS: Fetcher }).ASSETS.fetch(`https://assets.internal/_internal/aps/${slug}.json`);
      documents.set(slug, (await response.json()) as ApsUniversityDocument);
    }
    const marks = fc.uniqueArray(
      fc.record({
        subject_slug: fc.constantFrom(...subjects),
        percentage: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true })),
      }),
      {
        minLength: 1,
        maxLength: 12,
        selector: (m) => m.subject_slug,
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...universities), marks, async (slug, m) => {
        const started = Date.now();
        const response = await post("/v1/data/aps-calculator", JSON.stringify({ university_slug: slug, marks: m }));
        const body = (await expectWellFormed(response, started, slug)) as { data: unknown };
        expect(response.status).toBe(200);
        const document = documents.get(slug);
        if (!document) throw new Error(`no APS document for ${slug}`);
        expect(body.data).toEqual(JSON.parse(JSON.stringify(apsResultOf(document, m))));
      }),
      settings,
    );
  });
});

void BASE;
