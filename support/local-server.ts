// The real local server: wrangler's unstable_startWorker runs the Worker on workerd with its assets, on 127.0.0.1,
// without the `wrangler dev` command's session (no file watching, no interactive proxy of its own to reload). Two
// uses: the tests' and benches' server (startLocalServer: the test data set .test-dist/ and the test deployment's
// settings, test/worker/wrangler.jsonc, rate limits included, with a fresh signing key; `vars` replaces settings,
// e.g. CORS_ORIGINS), and `npm start`'s (startApiServer: dist/ and wrangler.jsonc, the local development key).
import path from "node:path";
import { unstable_startWorker } from "wrangler";
import { WRANGLER_OFFLINE_ENV } from "../lib/wrangler-env.ts";
import { newSigningKey, publicJwk, type SigningKey } from "./signing-keys.ts";
import { prepareTestDataset, ROOT } from "./test-dataset.ts";
import { signToken } from "./tokens.ts";

export type LocalServer = {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** A secret token, or with `origins` a publishable one for pages on those origins; valid for an hour. */
  token(scopes: string[], origins?: string[]): Promise<string>;
  stop(): Promise<void>;
};

/** The Worker of `config` on 127.0.0.1:`port` (0: a free one), trusting `key`, with `vars` replacing settings. */
async function startWorker(
  config: string,
  port: number,
  key: SigningKey,
  vars: Record<string, string>,
  logLevel: "error" | "warn",
): Promise<LocalServer> {
  Object.assign(process.env, WRANGLER_OFFLINE_ENV);
  const bindings = Object.fromEntries(
    Object.entries({ ...vars, TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }) }).map(([binding, value]) => [
      binding,
      { type: "plain_text" as const, value },
    ]),
  );
  const worker = await unstable_startWorker({
    config,
    bindings,
    dev: { server: { hostname: "127.0.0.1", port }, inspector: false, watch: false, logLevel },
  });
  const base = (await worker.url).origin;
  return {
    base,
    token: (scopes, origins) => signToken({ scopes, env: "test", expiresInSeconds: 3600, sub: key.kid, ...(origins ? { origins } : {}) }, key),
    stop: () => worker.dispose(),
  };
}

export async function startLocalServer(name: string, vars: Record<string, string> = {}): Promise<LocalServer> {
  await prepareTestDataset();
  return startWorker(path.join(ROOT, "test/worker/wrangler.jsonc"), 0, await newSigningKey(name), vars, "error");
}

/** `npm start`'s server: dist/ as wrangler.jsonc names it, its settings, and the local development key. */
export function startApiServer(port: number, key: SigningKey): Promise<LocalServer> {
  return startWorker(path.join(ROOT, "wrangler.jsonc"), port, key, {}, "warn");
}
