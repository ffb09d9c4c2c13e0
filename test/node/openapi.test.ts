// The OpenAPI document: generated from the operation table and the zod schemas, it lists every endpoint of
// SPEC.md with its scope, agrees with the Worker's router, lints clean, and its examples (from the test
// build in .test-dist/) match its own schemas.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, expectTypeOf, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { z } from "zod";
import { DOCS_SCRIPT } from "../../build/public-documents.ts";
import { ApsRequestSchema } from "../../domain/aps/schemas.ts";
import { IdParseRequestSchema, type ParsedIdSchema, type ParsedId } from "../../domain/id-number.ts";
import { ENDPOINT_SCOPES } from "../../domain/scopes.ts";
import { matchRoute, ROUTES } from "../../functions/route.ts";
import { EXAMPLE_ORIGIN, OPENAPI_PATH } from "../../lib/public-documents.ts";
import { recordOf, Province } from "../../schema/api.ts";
import { ERROR_STATUS } from "../../schema/errors.ts";
import { openApiDocument } from "../../schema/openapi.ts";
import { EXAMPLE_ASSET_URL, OPERATIONS, type ExampleSource, type Operation } from "../../schema/operations.ts";
import { describeProblems, lintOpenApi } from "../../support/openapi-lint.ts";
import { Contract, type Json, type OpenApiDocument } from "../support/contract.ts";
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";
import { ROOT, TEST_DIST } from "../../support/test-dataset.ts";

const built = async () =>
  JSON.parse(await readFile(path.join(TEST_DIST, ...OPENAPI_PATH.split("/")), "utf8")) as OpenApiDocument & Record<string, Json>;

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([p, item]) => Object.entries(item).map(([method, operation]) => ({ path: p, method, operation })));

/** SPEC.md section 4 and 5: every endpoint with the scope it needs (null: any valid token). */
const SPEC_ENDPOINTS: [string, string, string | null][] = [
  ["get", "/v1/data/universities", "universities:read"],
  ["get", "/v1/data/universities/{slug}", "universities:read"],
  ["get", "/v1/data/qualifications", "qualifications:read"],
  ["get", "/v1/data/qualifications/{id}", "qualifications:read"],
  ["get", "/v1/data/qualifications/{id}/requirements", "qualifications:requirements"],
  ["get", "/v1/data/subjects", null],
  ["post", "/v1/data/aps-calculator", "aps_calculator:use"],
  ["get", "/v1/data/high-schools", "high_schools:read"],
  ["get", "/v1/data/high-schools/{id}", "high_schools:read"],
  ["get", "/v1/data/bursaries", "bursaries:read"],
  ["get", "/v1/data/bursaries/{slug}", "bursaries:read"],
  ["get", "/v1/data/postal-codes", "postal_codes:read"],
  ["get", "/v1/data/postal-codes/{id}", "postal_codes:read"],
  ["post", "/v1/id/parse", "id_parser:use"],
  ["get", "/v1/data/prospectuses", "prospectuses:read"],
  ["get", "/v1/data/provinces", "provinces:read"],
];

/** A path an operation answers, with its path parameters filled in by values their patterns accept. */
function concretePath(operation: Operation): string {
  const samples: Record<string, string> = { slug: "university-of-cape-town", id: "", file: "provinces.csv" };
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pattern = operation.pathParameters?.shape[name] as z.ZodString | undefined;
    const candidates = [samples[name] ?? "", "0b8a4a3e-5f43-4e0e-9d6c-2b1f0b9a7c11", "hs_0123456789abcdef"];
    return candidates.find((c) => pattern?.safeParse(c).success) ?? name;
  });
}

describe("the document", () => {
  it("lists every endpoint of SPEC.md, with the scope SPEC.md gives it, on the bearer scheme", async () => {
    const document = await openApiDocument();
    for (const [method, p, scope] of SPEC_ENDPOINTS) {
      const operation = document.paths as Record<string, Record<string, Json>>;
      const found = operation[p]?.[method];
      expect(found, `${method} ${p}`).toBeDefined();
      expect(found.security, `${method} ${p}`).toEqual([{ bearer: scope === null ? [] : [scope] }]);
      expect(found["x-required-scope"]).toBe(scope);
      expect(found.summary.length).toBeGreaterThan(0);
    }
    expect((document.components as Json).securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
  });

  it("gives every error status the error body with exactly the codes of that status", async () => {
    const document = (await openApiDocument()) as unknown as OpenApiDocument;
    for (const { operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        if (Number(status) < 400) continue;
        const name = response.content["application/json"].schema.$ref.split("/").pop();
        const schema = document.components.schemas[name].properties.error.properties;
        expect(schema.status.const).toBe(Number(status));
        for (const code of schema.code.enum)
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${operation.operationId} ${status} ${code}`).toBe(Number(status));
      }
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "500"]));
    }
  });

  it("lints clean (Redocly's recommended rules), with the build's examples and without", async () => {
    for (const [what, text] of [
      ["the test build's document", JSON.stringify(await built())],
      ["the document without examples", JSON.stringify(await openApiDocument())],
    ] as const) {
      expect(describeProblems(await lintOpenApi(text)), what).toEqual([]);
    }
  });

  it("names the data's licence (CC BY 4.0), and the linter asks for it", async () => {
    const document = (await built()) as unknown as { info: { license?: { name: string; url?: string } } };
    expect(document.info.license?.url).toBe("https://creativecommons.org/licenses/by/4.0/");
    const { info, ...rest } = document;
    const { license: _, ...unlicensed } = info;
    expect(describeProblems(await lintOpenApi(JSON.stringify({ ...rest, info: unlicensed }))).join("\n")).toMatch(/info-license/);
  });

  it("has examples from the build for every operation, each matching the document's own schemas", async () => {
    const document = await built();
    const contract = new Contract(document);
    for (const { path: p, method, operation } of operationsOf(document)) {
      // A bulk file is no JSON: its media types say what it holds, and test/worker/sync.spec.ts checks the files.
      if (operation.responses["200"].content["application/json"] === undefined) continue;
      const examples = Object.entries((operation.responses["200"].content["application/json"].examples ?? {}) as Record<string, { value: unknown }>);
      expect(examples.length, operation.operationId).toBeGreaterThan(0);
      for (const [name, example] of examples) {
        const problems = contract.validate(`${p} ${method} ${name}`, operation.responses["200"].content["application/json"].schema, example.value);
        expect(problems, `${operation.operationId} ${name}`).toEqual([]);
        const request = operation.requestBody?.content["application/json"];
        if (request)
          expect(
            contract.validate(`${p} ${method} request ${name}`, request.schema, request.examples[name].value),
            `${operation.operationId} request ${name}`,
          ).toEqual([]);
      }
    }
  });

  it("is the same for the same schemas and build", async () => {
    expect(JSON.stringify(await openApiDocument())).toBe(JSON.stringify(await openApiDocument()));
  });
});

describe("the operation table", () => {
  it("agrees with the Worker's router: each operation is routed with its scope, and each route is an operation", () => {
    for (const operation of OPERATIONS) {
      const match = matchRoute(operation.method.toUpperCase(), concretePath(operation));
      expect(match, operation.operationId).toMatchObject({ kind: "route", route: { access: operation.scope } });
    }
    for (const route of ROUTES.filter((r) => r.access !== "public")) {
      const operation = OPERATIONS.find((o) => route.pattern.test(concretePath(o)) && route.methods.includes(o.method.toUpperCase()));
      expect(operation, `an operation for ${route.pattern}`).toBeDefined();
    }
    expect(new Set(OPERATIONS.map((o) => o.scope))).toEqual(new Set(Object.values(ENDPOINT_SCOPES)));
  });

  it("takes a new operation as one entry: its path, scope, parameters, body and error codes appear in the document", async () => {
    const compare: Operation = {
      operationId: "compareThings",
      method: "post",
      path: "/v1/data/things/{slug}/compare",
      summary: "Compare things",
      description: "A made-up operation.",
      tag: { name: "Things", description: "Made up." },
      scope: "universities:read",
      pathParameters: z.object({ slug: z.string().describe("Which thing.") }),
      query: z.object({ province: z.string().optional().describe("A filter.") }),
      body: { name: "CompareThingsRequest", schema: z.object({ things: z.array(z.string()).min(2) }) },
      response: { name: "CompareThingsResponse", schema: recordOf(z.array(Province)), description: "Compared." },
      errors: ["malformed_json", "invalid_aps_request"],
      target: () => ({ kind: "aps-compare" }),
      pathPatterns: { slug: "[a-z]+" },
      examples: () => [{ summary: "Two things", path: { slug: "a" }, body: { things: ["a", "b"] }, response: { data: [] } }],
    };
    // Its examples need nothing from the build, so an empty example source will do.
    const document = (await openApiDocument({ operations: [compare], examples: {} as ExampleSource })) as Json;
    expect(document.paths["/v1/data/things/{slug}/compare"].post.requestBody.content["application/json"].examples["two-things"].value).toEqual({
      things: ["a", "b"],
    });
    const operation = document.paths["/v1/data/things/{slug}/compare"].post;
    expect(operation.security).toEqual([{ bearer: ["universities:read"] }]);
    expect(operation.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ["slug", "path", true],
      ["province", "query", false],
    ]);
    expect(operation.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CompareThingsRequest" });
    expect(document.components.schemas.CompareThingsRequest.properties.things.minItems).toBe(2);
    expect(document.components.schemas.Error422InvalidApsRequest).toBeDefined();
    expect(operation.responses["400"].content["application/json"].schema.$ref).toBe("#/components/schemas/Error400InvalidRequestMalformedJson");
    expect(document.tags.map((t: { name: string }) => t.name)).toContain("Things");
  });
});

describe("the schemas the document shows for the computations", () => {
  it("describe the parser's result exactly", () => {
    expectTypeOf<z.infer<typeof ParsedIdSchema>>().toEqualTypeOf<ParsedId>();
    expect(IdParseRequestSchema.safeParse({ id_number: "8001015009087" }).success).toBe(true);
    expect(IdParseRequestSchema.safeParse({ id_number: 8001015009087 }).success).toBe(false);
  });

  it("accept an APS request the calculator accepts, and refuse what it refuses for its shape", () => {
    expect(ApsRequestSchema.safeParse({ university_slug: "university-of-pretoria", marks: LEARNER_A_MARKS }).success).toBe(true);
    for (const body of [
      { marks: LEARNER_A_MARKS },
      { university_slug: "../manifest", marks: LEARNER_A_MARKS },
      { university_slug: "university-of-pretoria", marks: [] },
      { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics", percentage: 101 }] },
      { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics", percentage: "70" }] },
      { university_slug: "university-of-pretoria", marks: Array.from({ length: 21 }, (_, i) => ({ subject_slug: `s${i}`, percentage: 50 })) },
    ]) {
      expect(ApsRequestSchema.safeParse(body).success, JSON.stringify(body).slice(0, 80)).toBe(false);
    }
  });
});

it("shows prospectus URLs on the production asset base (wrangler.jsonc env.live ASSET_URL)", () => {
  const config = unstable_readConfig({ config: path.join(ROOT, "wrangler.jsonc"), env: "live" }, { hideWarnings: true });
  expect(EXAMPLE_ASSET_URL).toBe(config.vars.ASSET_URL);
  expect(config.routes?.map((r: string | { pattern: string }) => (typeof r === "string" ? r : `https://${r.pattern}`))).toEqual([EXAMPLE_ORIGIN]);
});

describe("the reference page's script", () => {
  /** Runs docs.js as a page on `origin` would, with a stand-in Swagger UI that keeps its options. */
  function runDocsScript(origin: string): { url: string; responseInterceptor: (r: Record<string, unknown>) => Record<string, unknown> } {
    const captured: { options?: unknown } = {};
    const page = { location: new URL(`${origin}/docs`), SwaggerUIBundle: (options: unknown) => (captured.options = options), window: {} };
    runInNewContext(DOCS_SCRIPT, { ...page, URL, JSON });
    return captured.options as ReturnType<typeof runDocsScript>;
  }

  it("shows the origin it was served from in the document's examples, not the production one or a fixed port", async () => {
    const text = JSON.stringify(await openApiDocument());
    expect(text).toContain(`${EXAMPLE_ORIGIN}/v1/data/provinces`);
    expect(text).not.toContain("127.0.0.1:8787");
    const options = runDocsScript("http://127.0.0.1:9123");
    expect(options.url).toBe(`http://127.0.0.1:9123${OPENAPI_PATH}`);
    const shown = options.responseInterceptor({ url: options.url, text, body: JSON.parse(text) });
    expect(shown.text).toContain("http://127.0.0.1:9123/v1/data/provinces");
    expect(shown.text).not.toContain(EXAMPLE_ORIGIN);
    expect((shown.body as { info: { description: string } }).info.description).toContain("curl -H");
    // Answers to Try it out pass unchanged.
    const answer = { url: "http://127.0.0.1:9123/v1/data/provinces", text: `"${EXAMPLE_ORIGIN}"` };
    expect(options.responseInterceptor({ ...answer })).toEqual(answer);
  });
});
