// The local server the benches measure: the real Worker on wrangler's workerd, serving the test data
// set, on a free loopback port, with a fresh signing key and a token that holds every scope.
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { SCOPES } from "../domain/scopes.ts";
import { newSigningKey, publicJwk } from "../lib/signing-keys.ts";
import { signToken } from "../lib/tokens.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { prepareTestDataset, ROOT } from "../test/support/dataset.ts";

Object.assign(process.env, WRANGLER_OFFLINE_ENV);

export type LocalServer = { origin: string; headers: Record<string, string>; dispose: () => Promise<void> };

export async function startLocalServer(vars: Record<string, string> = {}): Promise<LocalServer> {
  await prepareTestDataset();
  const key = await newSigningKey("bench");
  const bindings: Record<string, { type: "plain_text"; value: string }> = {
    TOKEN_JWKS: { type: "plain_text", value: JSON.stringify({ keys: [publicJwk(key)] }) },
  };
  for (const [name, value] of Object.entries(vars)) bindings[name] = { type: "plain_text", value };
  const worker = await unstable_startWorker({
    config: path.join(ROOT, "test/worker/wrangler.jsonc"),
    bindings,
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "error" },
  });
  const token = await signToken({ scopes: [...SCOPES], env: "test", expiresInSeconds: 3600, sub: "bench" }, key);
  return { origin: (await worker.url).origin, headers: { authorization: `Bearer ${token}` }, dispose: () => worker.dispose() };
}
