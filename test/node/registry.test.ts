// Adding a resource through the registry alone (README "Adding a resource"): the fixture resource `widgets`
// (test/fixtures/widgets.ts) is one more entry in schema/resources.ts's RESOURCES and nothing else. From
// that entry come its operations (and so its OpenAPI entries), its routes, its query parsing, its find
// index, and the Worker's answers to its list, detail and find requests, served here from the files the
// build's emit stage writes for its records.
import { describe, expect, it, vi } from "vitest";
import { layoutFiles } from "../../build/emit.ts";
import { findIndexFiles } from "../../build/find-index.ts";
import type { Model } from "../../build/link.ts";
import type { ResourceRecords } from "../../build/records.ts";
import { dispatch, manifestReader } from "../../functions/dispatch.ts";
import type { Env } from "../../functions/env.ts";
import { ApiError } from "../../functions/errors.ts";
import { matchRoute } from "../../functions/route.ts";
import { openApiDocument } from "../../schema/openapi.ts";
import { OPERATIONS } from "../../schema/operations.ts";
import { Widget, WIDGETS } from "../fixtures/widgets.ts";

vi.mock("../../schema/resources.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../schema/resources.ts")>();
  const { WIDGET_RESOURCE } = await import("../fixtures/widgets.ts");
  return { ...original, RESOURCES: { ...original.RESOURCES, widgets: WIDGET_RESOURCE } };
});

/** The widgets' files as the emit stage lays them out, and an ASSETS binding that serves them. */
function widgetEnv(): Env {
  // The registry holds widgets only at run time (vi.mock above), so ResourceRecords, typed by the registry, does not
  // know them: the one cast of the test.
  const records = {
    name: "widgets",
    list: { schema: Widget, items: WIDGETS },
    detail: { schema: Widget, records: WIDGETS.map((w) => ({ key: w.slug, record: w })) },
  } as unknown as ResourceRecords;
  const find = findIndexFiles([records], {} as Model);
  expect(find.problems).toEqual([]);
  const { files, problems } = layoutFiles([records], find.files, { bucketThreshold: 100, recordsPerBucket: 10 }, { find: find.manifest });
  expect(problems).toEqual([]);
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const ASSETS = {
    fetch: async (request: Request) => {
      const content = byPath.get(new URL(request.url).pathname);
      return content === undefined ? new Response(null, { status: 404 }) : new Response(content);
    },
  };
  return { ASSETS, CACHE_MAX_AGE: "300" } as unknown as Env;
}

async function get(env: Env, path: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(`http://127.0.0.1${path}`);
  const match = matchRoute("GET", url.pathname);
  if (match.kind !== "route") throw new Error(`${path}: ${match.kind}`);
  expect(match.route.access).toBe("universities:read");
  try {
    const response = await dispatch(match.route.target, {
      request: new Request(url),
      url,
      env,
      principal: null,
      manifest: manifestReader(env, null),
    });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: { code: error.code, details: error.options.details } };
    throw error;
  }
}

describe("a resource added through the registry alone", () => {
  it("has its list and detail operations in the table, and in the OpenAPI document", async () => {
    expect(OPERATIONS.slice(-2).map((o) => [o.operationId, o.method, o.path])).toEqual([
      ["listWidgets", "get", "/v1/data/widgets"],
      ["getWidget", "get", "/v1/data/widgets/{slug}"],
    ]);
    const document = (await openApiDocument()) as { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string }[] }>> };
    expect(document.paths["/v1/data/widgets"]?.get?.operationId).toBe("listWidgets");
    expect(document.paths["/v1/data/widgets"]?.get?.parameters?.map((p) => p.name)).toEqual(["page", "per_page", "colour", "q"]);
    expect(document.paths["/v1/data/widgets/{slug}"]?.get?.operationId).toBe("getWidget");
  });

  it("is served: its list, a detail, a 404, its filters and its name search", async () => {
    const env = widgetEnv();
    expect(await get(env, "/v1/data/widgets?per_page=2")).toEqual({
      status: 200,
      body: { data: WIDGETS.slice(0, 2), meta: { total: 3, page: 1, per_page: 2 } },
    });
    expect(await get(env, "/v1/data/widgets/red-gizmo")).toEqual({ status: 200, body: { data: WIDGETS[1] } });
    expect((await get(env, "/v1/data/widgets/green-thing")).status).toBe(404);
    expect(await get(env, "/v1/data/widgets?colour=blue")).toEqual({
      status: 200,
      body: { data: [WIDGETS[0], WIDGETS[2]], meta: { total: 2, page: 1, per_page: 20 } },
    });
    expect((await get(env, "/v1/data/widgets?q=gizmo")).body).toMatchObject({ meta: { total: 2 } });
    expect(await get(env, "/v1/data/widgets?colour=green")).toEqual({
      status: 400,
      body: { code: "invalid_parameter", details: [{ path: "colour", message: "must be one of: blue, red" }] },
    });
    expect(await get(env, "/v1/data/widgets?size=3")).toMatchObject({ status: 400, body: { code: "unknown_parameter" } });
  });
});
