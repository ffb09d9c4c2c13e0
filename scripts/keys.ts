// Signing keys for tokens. Tokens are EdDSA (Ed25519) JWTs; the Worker verifies them with the public keys
// in TOKEN_JWKS. Locally, `npm start` creates a development key pair in .keys/ (git-ignored) and puts its
// public half in .dev.vars, which `wrangler dev` reads. Production keys never touch the repository.
//
//   npm run keys -- new [--kid NAME]   print a new key pair: the private JWK (keep it secret) and the
//                                      public JWKS entry (for TOKEN_JWKS)
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair, type JWK } from "jose";

export type SigningKey = JWK & { kid: string; alg: "EdDSA"; d: string };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEV_KEY_PATH = path.join(ROOT, ".keys", "dev-signing-key.json");
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
    await writeFile(DEV_KEY_PATH, JSON.stringify(key, null, 2) + "\n", { mode: 0o600 });
    console.error(`Created a local development signing key in ${path.relative(ROOT, DEV_KEY_PATH)} (git-ignored).`);
  }
  const jwks = JSON.stringify({ keys: [publicJwk(key)] });
  await writeFile(DEV_VARS_PATH, `# Written by npm start from ${path.relative(ROOT, DEV_KEY_PATH)}; local development only.\nTOKEN_JWKS='${jwks}'\n`);
  return key;
}

async function main(argv: string[]) {
  if (argv[0] !== "new") throw new Error("usage: npm run keys -- new [--kid NAME]");
  const kidAt = argv.indexOf("--kid");
  const kid = kidAt >= 0 ? (argv[kidAt + 1] ?? "") : `live-${new Date().toISOString().slice(0, 10)}`;
  const key = await newSigningKey(kid);
  console.log("Private key (store it as the TOKEN_SIGNING_KEY secret of whoever mints tokens; never commit it):");
  console.log(JSON.stringify(key));
  console.log("\nPublic key: add this object to the \"keys\" array of the Worker's TOKEN_JWKS secret:");
  console.log(JSON.stringify(publicJwk(key)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
