// The test pool's own defect and its workaround (test/worker/pool-prototype.ts): calls through the pool's wrapper of
// the Worker's entrypoint must not each add a layer to its prototype, or every call pays for all the ones before.
import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";

type Wrapper = { prototype: object; new (ctx: ExecutionContext, env: unknown): object };
type TestInternal = { createWorkerEntrypointWrapper(entrypoint: string): Wrapper };

describe("@cloudflare/vitest-pool-workers' entrypoint wrapper (workers-sdk issue 15092)", () => {
  it("keeps one Proxy around its prototype however many times it is constructed", async () => {
    // The pool's own module, as its runner uses it to wrap the Worker's default export.
    const internal = (await import("cloudflare:test-internal" as string)) as TestInternal;
    const Wrapped = internal.createWorkerEntrypointWrapper("default");
    new Wrapped(createExecutionContext(), env);
    const first = Wrapped.prototype;
    for (let n = 0; n < 5; n++) new Wrapped(createExecutionContext(), env);
    expect(Wrapped.prototype).toBe(first);
    // The one Proxy still does its work: a key the wrapper does not define is asked of the Worker's export.
    expect(typeof (Wrapped.prototype as Record<string, unknown>).fetch).toBe("function");
  });

  it("answers calls through exports as before", async () => {
    const worker = (exports as unknown as { default: Fetcher }).default;
    for (let n = 0; n < 3; n++) expect((await worker.fetch("https://api.test/docs")).status).toBe(200);
  });
});
