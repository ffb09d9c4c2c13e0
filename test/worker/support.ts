// Helpers for the workerd tests: mint tokens with the test keys, and call the real Worker.
import { env, exports } from "cloudflare:workers";
import { importJWK, SignJWT, type JWK } from "jose";
import { expect } from "vitest";
import handler from "../../functions/index.ts";
import type { Env } from "../../functions/env.ts";
import type { SigningKey } from "../../support/signing-keys.ts";
import { OPENAPI_PATH } from "../../lib/public-documents.ts";
import { Contract, type Json, type OpenApiDocument } from "../support/contract.ts";
import { SCOPES } from "../../domain/scopes.ts";

type TestEnv = { TEST_SIGNING_KEYS: string };
const keys = JSON.parse((env as unknown as TestEnv).TEST_SIGNING_KEYS) as Record<"current" | "next" | "stranger", JWK & { kid: string }>;

/** The private key the deployment trusts, for minting with support/tokens.ts as `npm run token` does. */
export const CURRENT_SIGNING_KEY = keys.current as SigningKey;

export const BASE = "https://api.test";
export const ALL_SCOPES = [...SCOPES];

export type TokenOptions = {
  scopes?: string[];
  key?: keyof typeof keys;
  env?: string;
  expiresIn?: number;
  issuedAt?: number;
  jti?: string;
  omit?: string[];
  /** Claims to add or replace, e.g. { token_type: "pub", origins: [...] } for a publishable token. */
  claims?: Record<string, unknown>;
};

export async function token(options: TokenOptions = {}): Promise<string> {
  const key = keys[options.key ?? "current"];
  const now = options.issuedAt ?? Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    sub: "test-client",
    scope: (options.scopes ?? ALL_SCOPES).join(" "),
    env: options.env ?? "test",
    iat: now,
    exp: now + (options.expiresIn ?? 3600),
    jti: options.jti ?? crypto.randomUUID(),
    ...options.claims,
  };
  for (const name of options.omit ?? []) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(await importJWK(key, "EdDSA"));
}

const worker = () => (exports as unknown as { default: Fetcher }).default;

/** A client address of its own, as Cloudflare would give in CF-Connecting-IP: requests without a token are counted per address. */
export function clientAddress(): string {
  const [a = 0, b = 0] = crypto.getRandomValues(new Uint16Array(2));
  return `2001:db8::${a.toString(16)}:${b.toString(16)}`;
}

/**
 * The real Worker, through the pool's `exports`. Each call comes from a client address of its own unless
 * `headers` names one (cf-connecting-ip), so requests without a token never share a rate limit by accident.
 */
export async function call(
  path: string,
  init: { token?: string | null; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": clientAddress(), ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? (await token())}`;
  const method = init.method ?? "GET";
  // Redirects are the client's to follow: followed here, they would come back into this Worker.
  const response = await worker().fetch(`${BASE}${path}`, { method, headers, body: init.body, redirect: "manual" });
  return checkedAgainstDocument({ method, url: `${BASE}${path}` }, response);
}

/**
 * As `call`, but through the Worker's handler in this isolate (callHandler): for property-based runs of
 * thousands of requests. Through the pool's `exports` they slowed down until the pool's stack overflowed, a defect
 * of the pool that test/worker/pool-prototype.ts now works around; the direct call is still the cheaper one.
 */
export async function callDirect(
  path: string,
  init: { token?: string | null; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": clientAddress(), ...init.headers };
  if (init.token !== null) headers.authorization = `Bearer ${init.token ?? (await token())}`;
  return callHandler(new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body: init.body, redirect: "manual" }));
}

/**
 * The Worker's handler called in this isolate (with another environment if given), its answer checked like
 * every other. For walks of thousands of requests: each call through the pool's `exports` got slower than
 * the one before (600 calls went from 10 to 140 ms each; test/worker/pool-prototype.ts says why and works around
 * it), while the handler called directly stays at 0.5 ms.
 */
export function callHandler(request: Request, testEnv: Env = env as unknown as Env): Promise<Response> {
  return handler.fetch(request, testEnv).then((response) => checkedAgainstDocument({ method: request.method, url: request.url }, response));
}

// The OpenAPI document the Worker serves, read once (a plain value, never a promise tied to a request).
let contract: Contract | null = null;

async function contractOf(): Promise<Contract> {
  if (contract === null) {
    const response = await worker().fetch(`${BASE}${OPENAPI_PATH}`);
    contract = new Contract((await response.json()) as OpenApiDocument);
  }
  return contract;
}

/**
 * Every answer in this suite goes through here: its body must match the schema the served OpenAPI document
 * gives for its operation and status, and it must carry the headers the document requires there (the
 * RateLimit fields, Retry-After on a 429; test/support/contract.ts), so the document cannot drift from what is served.
 */
async function checkedAgainstDocument(request: { method: string; url: string }, response: Response): Promise<Response> {
  const body = await text(response.clone());
  const problems = (await contractOf()).check(request, {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body,
    headers: response.headers,
  });
  expect(problems, "the answer matches the OpenAPI document").toEqual([]);
  return response;
}

/** A body as text, whatever its media type (workerd warns when .text() reads one it does not know as text: NDJSON). */
export async function text(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

export async function json(response: Response): Promise<Json> {
  return JSON.parse(await response.text());
}

export function base64url(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
