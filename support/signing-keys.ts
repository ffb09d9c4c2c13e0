// Signing keys for tokens. Tokens are EdDSA (Ed25519) JWTs; the Worker verifies them with the public keys
// in TOKEN_JWKS. Locally, `npm start` creates a development key pair in .keys/ (git-ignored) and puts its
// public half in .keys/worker.env, which it hands to `wrangler dev` (--env-file). Not .dev.vars: `wrangler
// types` reads .dev.vars too, and would then type TOKEN_JWKS into worker-configuration.d.ts, so the committed
// types would change (and `npm run lint` fail) after every first start. Production keys never touch the
// repository.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { ROOT } from "../lib/root.ts";

export type SigningKey = JWK & { kid: string; alg: "EdDSA"; d: string };

const DEV_KEY_PATH = path.join(ROOT, ".keys", "dev-signing-key.json");
/** The Worker's local secrets (TOKEN_JWKS), in .env form, for `wrangler dev --env-file`. */
export const DEV_ENV_FILE = path.join(ROOT, ".keys", "worker.env");
/** Where npm start wrote them before: removed when it is that file (its first line says so). */
const OLD_DEV_VARS_PATH = path.join(ROOT, ".dev.vars");
const WRITTEN_BY = "# Written by npm start from";

export async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid, alg: "EdDSA", use: "sig", d: jwk.d ?? "" } as SigningKey;
}

export function publicJwk(key: SigningKey): JWK {
  const { d: _private, ...publicPart } = key;
  return publicPart;
}

/** Creates the local development key pair once, and (re)writes .keys/worker.env with its public key. */
export async function ensureDevKeys(): Promise<SigningKey> {
  let key: SigningKey;
  if (existsSync(DEV_KEY_PATH)) {
    key = JSON.parse(await readFile(DEV_KEY_PATH, "utf8")) as SigningKey;
  } else {
    key = await newSigningKey(`dev-${new Date().toISOString().slice(0, 10)}`);
    await mkdir(path.dirname(DEV_KEY_PATH), { recursive: true });
    await writeFile(DEV_KEY_PATH, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
    console.error(`Created a local development signing key in ${path.relative(ROOT, DEV_KEY_PATH)} (git-ignored).`);
  }
  await writeDevEnvFile(key, DEV_ENV_FILE);
  if (existsSync(OLD_DEV_VARS_PATH) && (await readFile(OLD_DEV_VARS_PATH, "utf8")).startsWith(WRITTEN_BY)) await rm(OLD_DEV_VARS_PATH);
  return key;
}

/** Writes the Worker's local secrets for `key` (TOKEN_JWKS with its public half) to `file`, for --env-file. */
export async function writeDevEnvFile(key: SigningKey, file: string): Promise<void> {
  const jwks = JSON.stringify({ keys: [publicJwk(key)] });
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${WRITTEN_BY} ${path.relative(ROOT, DEV_KEY_PATH)}; local development only.\nTOKEN_JWKS='${jwks}'\n`);
}
