// The Worker's cache of chunk and bucket texts (functions/assets.ts cachedTextAsset): a hot text is served
// without an asset read, a new data version reads afresh, and the cache stays within its budget.
import { describe, expect, it } from "vitest";
import { cachedEntries, cachedJsonAsset, cachedTextAsset, manifestOf } from "../../functions/assets.ts";
import type { Env } from "../../functions/env.ts";
import type { Manifest } from "../../lib/layout.ts";

function fakeEnv(texts: Record<string, string>) {
  const reads: string[] = [];
  const ASSETS = {
    fetch: async (request: Request) => {
      const path = new URL(request.url).pathname;
      reads.push(path);
      const text = texts[path];
      return text === undefined ? new Response(null, { status: 404 }) : new Response(text);
    },
  };
  return { env: { ASSETS } as unknown as Env, reads };
}

const manifest = (version: string) => ({ data_version: version, resources: {}, files: 0, bytes: 0 }) as Manifest;

describe("cachedTextAsset", () => {
  it("reads a text once per data version and never keeps a missing one", async () => {
    const { env, reads } = fakeEnv({ "/manifest.json": JSON.stringify(manifest("a")), "/b/0.json": "zero" });
    const m = await manifestOf(env, 0);
    expect(await cachedTextAsset(env, m, "/b/0.json")).toBe("zero");
    expect(await cachedTextAsset(env, m, "/b/0.json")).toBe("zero");
    expect(await cachedTextAsset(env, m, "/b/missing.json")).toBeNull();
    expect(await cachedTextAsset(env, m, "/b/missing.json")).toBeNull();
    expect(reads.filter((r) => r === "/b/0.json")).toHaveLength(1);
    expect(reads.filter((r) => r === "/b/missing.json")).toHaveLength(2);
    // A manifest of another version than the isolate's current one is read through, not cached.
    expect(await cachedTextAsset(env, manifest("other"), "/b/0.json")).toBe("zero");
    expect(reads.filter((r) => r === "/b/0.json")).toHaveLength(2);
  });

  it("drops the least recently used texts past its budget of 8 M characters", async () => {
    const big = (c: string) => c.repeat(3 * 1024 * 1024);
    const { env, reads } = fakeEnv({ "/manifest.json": JSON.stringify(manifest("a")), "/1": big("1"), "/2": big("2"), "/3": big("3") });
    const m = await manifestOf(env, 0);
    for (const path of ["/1", "/2", "/1", "/3", "/1", "/2"]) await cachedTextAsset(env, m, path);
    // /1 stays (used again before /3 came in); /2 was the least recently used when /3 arrived.
    expect(reads.filter((r) => r !== "/manifest.json")).toEqual(["/1", "/2", "/3", "/2"]);
  });
});

describe("cachedJsonAsset", () => {
  it("keeps a document once per data version, and no miss: paths named by requests cannot grow it", async () => {
    const { env, reads } = fakeEnv({ "/manifest.json": JSON.stringify(manifest("a")), "/aps/index.json": '{"n":1}' });
    const m = await manifestOf(env, 0);
    expect(await cachedJsonAsset(env, m, "/aps/index.json")).toEqual({ n: 1 });
    expect(await cachedJsonAsset(env, m, "/aps/index.json")).toEqual({ n: 1 });
    expect(reads.filter((r) => r === "/aps/index.json")).toHaveLength(1);
    // What POST /v1/data/aps-calculator/targets does with a well-formed qualification id the build does not have.
    for (let i = 0; i < 5_000; i++) expect(await cachedJsonAsset(env, m, `/v1/data/qualifications/${i}.json`)).toBeNull();
    expect(cachedEntries(env).documents).toBe(1);
    expect(await cachedJsonAsset(env, m, "/v1/data/qualifications/0.json")).toBeNull();
    expect(reads.filter((r) => r === "/v1/data/qualifications/0.json")).toHaveLength(2);
  });
});
