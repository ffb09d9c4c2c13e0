// Signing keys for tokens. Tokens are EdDSA (Ed25519) JWTs; the Worker verifies them with the public keys
// in TOKEN_JWKS. Locally, `npm start` creates a development key pair in .keys/ (git-ignored) and puts its
// public half in .dev.vars, which `wrangler dev` reads. Production keys never touch the repository.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { ROOT } from "../lib/root.ts";

export type SigningKey = JWK & { kid: string; alg: "EdDSA"; d: string };

const DEV_KEY_PATH = path.join(ROOT, ".keys", "dev-signing-key.json");
const DEV_VARS_PATH = path.join(ROOT, ".dev.vars");

export async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid, alg: "EdDSA", use: "sig", d: jwk.d ?? "" } as SigningKey;
}

export function publicJwk(key: SigningKey): JWK {
  const { d: _private, ...publicPart } = key;
  return publicPart;
}

/** Creates the local development key pair once, and (re)writes .dev.vars with its public key. */
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
  const jwks = JSON.stringify({ keys: [publicJwk(key)] });
  await writeFile(DEV_VARS_PATH, `# Written by npm start from ${path.relative(ROOT, DEV_KEY_PATH)}; local development only.\nTOKEN_JWKS='${jwks}'\n`);
  return key;
}
