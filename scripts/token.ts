// npm run token -- --scopes a:read,b:read [--env test|live] [--expires-in 30d] [--sub NAME]
// Prints a signed token and nothing else on stdout, so it can be used as $(npm run -s token -- ...).
// The private key comes from TOKEN_SIGNING_KEY (a JWK, for live tokens) or, for test tokens, from the
// local development key that `npm start` creates.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importJWK, SignJWT } from "jose";
import { isScope, SCOPES } from "../domain/scopes.ts";
import { ensureDevKeys, type SigningKey } from "./keys.ts";

export type TokenRequest = { scopes: string[]; env: "test" | "live"; expiresInSeconds: number; sub: string };

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

export function parseDuration(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`--expires-in takes a number and a unit (s, m, h, d), e.g. 30d; got '${text}'`);
  return Number(m[1]) * (UNIT_SECONDS[m[2]] ?? 1);
}

export function parseTokenArguments(argv: string[]): TokenRequest {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] ?? "", argv[i + 1]];
    if (!["--scopes", "--env", "--expires-in", "--sub"].includes(flag)) throw new Error(`unknown option ${flag}`);
    if (value === undefined) throw new Error(`${flag} needs a value`);
    options.set(flag, value);
  }
  const scopes = (options.get("--scopes") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (scopes.length === 0) throw new Error(`--scopes is required: a comma-separated list of ${SCOPES.join(", ")}`);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new Error(`unknown scope(s) ${unknown.join(", ")}; known: ${SCOPES.join(", ")}`);
  const env = options.get("--env") ?? "test";
  if (env !== "test" && env !== "live") throw new Error("--env is test or live");
  return { scopes, env, expiresInSeconds: parseDuration(options.get("--expires-in") ?? "30d"), sub: options.get("--sub") ?? "local-developer" };
}

export async function signToken(request: TokenRequest, key: SigningKey, now = Math.floor(Date.now() / 1000)): Promise<string> {
  const privateKey = await importJWK(key, "EdDSA");
  return new SignJWT({ scope: request.scopes.join(" "), env: request.env })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: key.kid })
    .setSubject(request.sub)
    .setIssuedAt(now)
    .setExpirationTime(now + request.expiresInSeconds)
    .setJti(randomUUID())
    .sign(privateKey);
}

async function signingKeyFor(env: "test" | "live"): Promise<SigningKey> {
  const fromEnvironment = process.env.TOKEN_SIGNING_KEY;
  if (fromEnvironment) return JSON.parse(fromEnvironment) as SigningKey;
  if (env === "live") throw new Error("live tokens are signed with the production key: set TOKEN_SIGNING_KEY (see README, Tokens)");
  return ensureDevKeys();
}

async function main() {
  const request = parseTokenArguments(process.argv.slice(2));
  process.stdout.write((await signToken(request, await signingKeyFor(request.env))) + "\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
