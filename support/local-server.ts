// The real local server for tests that talk HTTP to it (a client, a browser) and for the benches: wrangler
// starts the Worker on workerd with the test data set (.test-dist/) and the test deployment's settings
// (test/worker/wrangler.jsonc, rate limits included), on 127.0.0.1 and a port of its own, with a fresh
// signing key. `vars` replaces settings (e.g. CORS_ORIGINS).
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { newSigningKey, publicJwk, type SigningKey } from "./signing-keys.ts";
import { signToken } from "./tokens.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { prepareTestDataset, ROOT } from "./test-dataset.ts";

export type LocalServer = {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** A secret token, or with `origins` a publishable one for pages on those origins; valid for an hour. */
  token(scopes: string[], origins?: string[]): Promise<string>;
  stop(): Promise<void>;
};

export async function startLocalServer(name: string, vars: Record<string, string> = {}): Promise<LocalServer> {
  Object.assign(process.env, WRANGLER_OFFLINE_ENV);
  await prepareTestDataset();
  const key: SigningKey = await newSigningKey(name);
  const bindings = Object.fromEntries(
    Object.entries({ ...vars, TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }) }).map(([binding, value]) => [
      binding,
      { type: "plain_text" as const, value },
    ]),
  );
  const worker = await unstable_startWorker({
    config: path.join(ROOT, "test/worker/wrangler.jsonc"),
    bindings,
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "error" },
  });
  const base = (await worker.url).origin;
  return {
    base,
    token: (scopes, origins) => signToken({ scopes, env: "test", expiresInSeconds: 3600, sub: name, ...(origins ? { origins } : {}) }, key),
    stop: () => worker.dispose(),
  };
}
