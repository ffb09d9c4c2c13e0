// A data route's manifest read starts before the token is checked and counted, so on a fresh isolate the two
// overlap (functions/dispatch.ts manifestReader, issue 31): answered through the Worker's own fetch handler
// with a fake ASSETS binding and rate limiter that log the order of their calls.
import { describe, expect, it } from "vitest";
import worker from "../../functions/index.ts";
import { newSigningKey } from "../../support/signing-keys.ts";
import { signToken } from "../../support/tokens.ts";
import { fakeWorkerEnv } from "../support/worker-env.ts";

const MANIFEST = { data_version: "v1", resources: {}, files: 0, bytes: 0 };

function fakeEnv(key: Awaited<ReturnType<typeof newSigningKey>>, manifest: unknown = MANIFEST) {
  const calls: string[] = [];
  const limiter = {
    limit: async () => {
      calls.push("count");
      return { success: true };
    },
  };
  const env = fakeWorkerEnv(
    key,
    async (request) => {
      const path = new URL(request.url).pathname;
      calls.push(`read ${path}`);
      if (path === "/manifest.json" && manifest !== null) return new Response(JSON.stringify(manifest));
      return new Response(null, { status: 404 });
    },
    limiter,
  );
  return { env, calls };
}

describe("the manifest read of a data route", () => {
  it("starts before the token is counted, and is read once per request", async () => {
    const key = await newSigningKey("manifest-overlap");
    const token = await signToken({ scopes: ["universities:read"], env: "test", expiresInSeconds: 600, sub: "overlap" }, key);
    const { env, calls } = fakeEnv(key);
    await worker.fetch(new Request("http://127.0.0.1/v1/data/universities/wits", { headers: { authorization: `Bearer ${token}` } }), env);
    expect(calls.indexOf("read /manifest.json")).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf("read /manifest.json")).toBeLessThan(calls.indexOf("count"));
    expect(calls.filter((c) => c === "read /manifest.json")).toHaveLength(1);
  });

  it("leaves a refused request's answer as it was, even when the read fails", async () => {
    const key = await newSigningKey("manifest-overlap");
    const { env, calls } = fakeEnv(key, null);
    const response = await worker.fetch(new Request("http://127.0.0.1/v1/data/universities/wits"), env);
    expect(response.status).toBe(401);
    expect(calls).toContain("read /manifest.json");
  });

  it("does not read it for a route that does not need it (ID parsing)", async () => {
    const key = await newSigningKey("manifest-overlap");
    const token = await signToken({ scopes: ["id_parser:use"], env: "test", expiresInSeconds: 600, sub: "overlap" }, key);
    const { env, calls } = fakeEnv(key);
    const body = JSON.stringify({ id_number: "8001015009087" });
    await worker.fetch(new Request("http://127.0.0.1/v1/id/parse", { method: "POST", body, headers: { authorization: `Bearer ${token}` } }), env);
    expect(calls.filter((c) => c.startsWith("read"))).toEqual([]);
  });
});
