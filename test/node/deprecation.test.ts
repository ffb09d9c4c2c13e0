// The deprecation policy (README "Deprecation"), on a fixture: nothing is deprecated today, so a copy of
// GET /v1/meta marked deprecated is added to the operation table here, and answered through the Worker's own fetch
// handler with the headers of domain/deprecation.ts; the OpenAPI document marks it too.
import { describe, expect, it, vi } from "vitest";
import { deprecationHeaders, deprecationProblems, NOTICE_DAYS, type Deprecation } from "../../domain/deprecation.ts";
import worker from "../../functions/index.ts";
import { openApiDocument } from "../../schema/openapi.ts";
import { OPERATIONS } from "../../schema/operations.ts";
import { newSigningKey } from "../../support/signing-keys.ts";
import { signToken } from "../../support/tokens.ts";
import { fakeWorkerEnv } from "../support/worker-env.ts";

const RETIRING = vi.hoisted((): Deprecation => ({ since: "2027-01-01", sunset: "2027-07-01", successor: "/v1/meta" }));

vi.mock("../../schema/operations.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../schema/operations.ts")>();
  const meta = original.OPERATIONS.find((o) => o.operationId === "getMeta");
  if (!meta) throw new Error("no getMeta operation");
  const retiring = { ...meta, operationId: "getMetaOld", summary: "What is live (the old path)", path: "/v1/meta-old", deprecated: RETIRING };
  return { ...original, OPERATIONS: [...original.OPERATIONS, retiring] };
});

describe("the deprecation policy", () => {
  it("gives a retiring operation's answers Deprecation, Sunset and Link headers", () => {
    expect(deprecationHeaders(RETIRING)).toEqual({
      deprecation: "@1798761600",
      sunset: "Thu, 01 Jul 2027 00:00:00 GMT",
      link: '</v1/meta>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"',
    });
  });

  it(`refuses a sunset less than ${NOTICE_DAYS} days after the deprecation, and every operation keeps the policy`, () => {
    expect(deprecationProblems({ since: "2027-01-01", sunset: "2027-03-01" })).toEqual([expect.stringMatching(/59 days after/)]);
    expect(deprecationProblems(RETIRING)).toEqual([]);
    expect(OPERATIONS.flatMap((o) => (o.deprecated ? deprecationProblems(o.deprecated) : []))).toEqual([]);
  });

  it("answers the fixture through the Worker with the headers, and the document marks it deprecated", async () => {
    const key = await newSigningKey("deprecation-test");
    const env = fakeWorkerEnv(key, async () => new Response(JSON.stringify({ data: {} })));
    const token = await signToken({ scopes: [], env: "test", expiresInSeconds: 600, sub: "deprecation-test" }, key);
    const headers = { authorization: `Bearer ${token}`, "cf-connecting-ip": "192.0.2.1" };
    const old = await worker.fetch(new Request("http://127.0.0.1/v1/meta-old", { headers }), env);
    expect(old.status).toBe(200);
    expect(old.headers.get("deprecation")).toBe("@1798761600");
    expect(old.headers.get("sunset")).toBe("Thu, 01 Jul 2027 00:00:00 GMT");
    expect(old.headers.get("link")).toContain('rel="successor-version"');
    const current = await worker.fetch(new Request("http://127.0.0.1/v1/meta", { headers }), env);
    expect(current.status).toBe(200);
    expect(current.headers.get("deprecation")).toBeNull();
    const document = (await openApiDocument()) as { paths: Record<string, { get: { deprecated?: boolean; description: string } }> };
    expect(document.paths["/v1/meta-old"]?.get.deprecated).toBe(true);
    expect(document.paths["/v1/meta-old"]?.get.description).toMatch(/Deprecated\*\* since 2027-01-01; it stops answering on 2027-07-01/);
    expect(document.paths["/v1/meta"]?.get.deprecated).toBeUndefined();
  });
});
