// The real local server for tests that talk HTTP to it (a client, a browser): wrangler starts the Worker on
// workerd with the test data set (.test-dist/) on 127.0.0.1 and a port of its own, with a fresh signing key.
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { newSigningKey, publicJwk, type SigningKey } from "../lib/signing-keys.ts";
import { signToken } from "../lib/tokens.ts";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { prepareTestDataset, ROOT } from "./test-dataset.ts";

export type LocalServer = {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  token(scopes: string[]): Promise<string>;
  stop(): Promise<void>;
};

export async function startLocalServer(name: string): Promise<LocalServer> {
  Object.assign(process.env, WRANGLER_OFFLINE_ENV);
  await prepareTestDataset();
  const key: SigningKey = await newSigningKey(name);
  const worker = await unstable_startWorker({
    config: path.join(ROOT, "test/worker/wrangler.jsonc"),
    bindings: { TOKEN_JWKS: { type: "plain_text", value: JSON.stringify({ keys: [publicJwk(key)] }) } },
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, logLevel: "error" },
  });
  const base = (await worker.url).origin;
  return {
    base,
    token: (scopes) => signToken({ scopes, env: "test", expiresInSeconds: 600, sub: name }, key),
    stop: () => worker.dispose(),
  };
}
