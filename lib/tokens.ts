// Minting tokens: what `npm run token` prints, and what the tests and benches sign their requests with.
import { randomUUID } from "node:crypto";
import { importJWK, SignJWT } from "jose";
import type { SigningKey } from "./signing-keys.ts";

export type TokenRequest = { scopes: string[]; env: "test" | "live"; expiresInSeconds: number; sub: string };

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "30d", "12h", "90m", "45s" in seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`--expires-in takes a number and a unit (s, m, h, d), e.g. 30d; got '${text}'`);
  return Number(m[1]) * (UNIT_SECONDS[m[2]] ?? 1);
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
