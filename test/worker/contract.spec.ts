// The OpenAPI document against the real Worker: every example it shows is what the API answers to that
// request, and the check every other test's answers go through (support.ts) does catch a drifted answer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EXAMPLE_ASSET_URL } from "../../schema/operations.ts";
import { Contract, type Json, type OpenApiDocument } from "../support/contract.ts";
import { BASE, call, json } from "./support.ts";

const served = async (): Promise<OpenApiDocument> => json(await call("/v1/openapi.json", { token: null }));

type Operation = { operationId: string; parameters?: { name: string; in: string; example?: unknown }[]; requestBody?: Json; responses: Json };

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

describe("the document's examples", () => {
  it("are what the API answers to their requests, for every operation", async () => {
    const document = await served();
    const assetUrl = (env as unknown as { ASSET_URL: string }).ASSET_URL;
    for (const { path, method, operation } of operationsOf(document)) {
      // A bulk file is no JSON: its media types say what it holds, and sync.spec.ts checks the files.
      if (operation.responses["200"].content["application/json"] === undefined) continue;
      const examples = operation.responses["200"].content["application/json"].examples as Record<string, { value: unknown }> | undefined;
      expect(Object.keys(examples ?? {}).length, `${operation.operationId} has examples`).toBeGreaterThan(0);
      const parameter = (where: string) => (operation.parameters ?? []).filter((p) => p.in === where);
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => String(parameter("path").find((p) => p.name === name)?.example));
      const query = new URLSearchParams(parameter("query").flatMap((p) => (p.example === undefined ? [] : [[p.name, String(p.example)]]))).toString();
      for (const [name, example] of Object.entries(examples ?? {})) {
        const body = operation.requestBody?.content["application/json"].examples[name].value;
        const response = await call(`${url}${query ? `?${query}` : ""}`, {
          method: method.toUpperCase(),
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
        });
        expect(response.status, `${operation.operationId} ${name}`).toBe(200);
        // Examples show the production asset base; this test deployment has its own.
        const expected = JSON.parse(JSON.stringify(example.value).replaceAll(EXAMPLE_ASSET_URL, assetUrl));
        expect(await json(response), `${operation.operationId} ${name}`).toEqual(expected);
      }
    }
  });
});

describe("the contract check", () => {
  const request = { method: "GET", url: `${BASE}/v1/data/provinces` };
  const answer = (status: number, body: unknown) => ({ status, contentType: "application/json; charset=utf-8", body: JSON.stringify(body) });

  it("passes what the Worker serves and fails a field, a status or a code the document does not have", async () => {
    const contract = new Contract(await served());
    const real = await json(await call("/v1/data/provinces"));
    expect(contract.check(request, answer(200, real))).toEqual([]);
    const [first, ...rest] = real.data;
    expect(contract.check(request, answer(200, { ...real, data: [{ ...first, capital: "Bhisho" }, ...rest] }))).not.toEqual([]);
    expect(contract.check(request, answer(200, { ...real, data: [{ ...first, code: 7 }, ...rest] }))).not.toEqual([]);
    const { code: _code, ...withoutCode } = first;
    expect(contract.check(request, answer(200, { ...real, data: [withoutCode, ...rest] }))).not.toEqual([]);
    expect(contract.check(request, answer(418, { error: { status: 418, code: "not_found", message: "teapot" } }))).not.toEqual([]);
    expect(contract.check(request, answer(401, { error: { status: 401, code: "missing_token", message: "no token" } }))).toEqual([]);
    expect(contract.check(request, answer(401, { error: { status: 401, code: "not_found", message: "no token" } }))).not.toEqual([]);
    expect(contract.check({ method: "GET", url: `${BASE}/v1/nothing` }, answer(404, { oops: true }))).not.toEqual([]);
  });
});
