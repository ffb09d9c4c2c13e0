// A setup file of the workerd suite (vitest.worker.config.ts), first of them: works around a defect of
// @cloudflare/vitest-pool-workers 0.15 (cloudflare/workers-sdk issue 15092, fixed by pull request 15106 in releases
// that need a newer wrangler than the pinned one). The pool's wrapper of the Worker's entrypoints
// (createProxyPrototypeClass in its test-internal module) puts a Proxy around its class's prototype in the
// constructor, so every construction - one per call through `exports` from `cloudflare:workers` - wraps the
// previous Proxy once more: after n calls a property read runs n nested traps. Calls got slower one after the other
// (600 calls went from 10 to 140 ms each), and sharing one isolate across test files made each file slower than
// the last. Here a Proxy is not put around a prototype that already has one made here: the pool's first
// construction installs its Proxy, later ones keep it. The traps are the same function each time, so one layer
// answers as n would. Nothing else changes: every other Proxy is made as before.
const INSTALLED = Symbol.for("sa-edu-data-api.one-prototype-proxy");
const registry = globalThis as unknown as Record<symbol, boolean>;

if (!registry[INSTALLED]) {
  registry[INSTALLED] = true;
  const NativeProxy = Proxy;
  /** Proxies made here around a class's own prototype object. */
  const prototypeProxies = new WeakSet<object>();
  const isClassPrototype = (value: object): boolean =>
    (Object.getOwnPropertyDescriptor(value, "constructor")?.value as { prototype?: unknown } | undefined)?.prototype === value;
  globalThis.Proxy = new NativeProxy(NativeProxy, {
    construct(target, args, newTarget) {
      const [wrapped] = args as [object, ProxyHandler<object>];
      if (prototypeProxies.has(wrapped)) return wrapped;
      const made = Reflect.construct(target, args, newTarget) as object;
      if (typeof wrapped === "object" && wrapped !== null && isClassPrototype(wrapped)) prototypeProxies.add(made);
      return made;
    },
  });
}
