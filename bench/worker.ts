// What a client waits for: an authenticated GET through the Worker (token check and rate limiting: one count
// in the ratelimits binding per request, as in production), against the same file served by the asset
// server with no Worker in front, side by side on loopback (bounded in time); and the cost of verifying a
// token, the one expensive step of the gate, uncached and cached. Both servers run on Miniflare directly
// (support/local-server.ts), as the tests' server and npm start do: no wrangler proxy in front.
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { authenticate } from "../functions/authenticate.ts";
import type { Env } from "../functions/env.ts";
import { newSigningKey, publicJwk } from "../support/signing-keys.ts";
import { signToken } from "../support/tokens.ts";
import { startWorkerDirect } from "../support/local-server.ts";
import { prepareTestDataset, ROOT } from "../support/test-dataset.ts";

export type LoadFigures = { requests: number; perSecond: number; p50: number; p99: number; errors: number };

/** `connections` keep-alive loops hitting one URL for `seconds`. */
export async function load(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode === 200) latencies.push(performance.now() - started);
          else errors++;
          resolve();
        });
      });
      request.on("error", () => {
        errors++;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}

export function combine(rounds: LoadFigures[]): LoadFigures {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  return {
    requests,
    perSecond: rounds.reduce((n, r) => n + r.perSecond, 0) / rounds.length,
    p50: median(rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
  };
}

async function tokenVerification() {
  const key = await newSigningKey("bench");
  const env = { TOKEN_ENV: "test", TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }) } as Env;
  const tokens = await Promise.all(
    Array.from({ length: 300 }, () => signToken({ scopes: ["universities:read"], env: "test", expiresInSeconds: 3600, sub: "bench" }, key)),
  );
  const request = (t: string) => new Request("https://bench/", { headers: { authorization: `Bearer ${t}` } });
  await authenticate(request(tokens[0] ?? ""), env); // warm up jose and the key set
  let started = performance.now();
  for (const t of tokens.slice(1)) await authenticate(request(t), env);
  const uncached = (performance.now() - started) / (tokens.length - 1);
  const repeated = request(tokens[1] ?? "");
  started = performance.now();
  const rounds = 20_000;
  for (let i = 0; i < rounds; i++) await authenticate(repeated, env);
  const cached = (performance.now() - started) / rounds;
  return { uncachedMs: uncached, cachedMs: cached };
}

export async function benchWorker(seconds = 5, connections = 16): Promise<void> {
  await prepareTestDataset();
  const key = await newSigningKey("bench");
  const gated = await startWorkerDirect(path.join(ROOT, "test/worker/wrangler.jsonc"), 0, { TOKEN_JWKS: JSON.stringify({ keys: [publicJwk(key)] }) });
  const baseline = await startWorkerDirect(path.join(ROOT, "bench/wrangler.assets-only.jsonc"), 0);
  try {
    const token = await signToken({ scopes: ["universities:read"], env: "test", expiresInSeconds: 3600, sub: "bench" }, key);
    const gatedUrl = `${gated.base}/v1/data/universities/university-of-cape-town`;
    const baselineUrl = `${baseline.base}/v1/data/universities/university-of-cape-town.json`;
    const listUrl = `${gated.base}/v1/data/universities?page=2&per_page=10`;
    const auth = { authorization: `Bearer ${token}` };
    await load(gatedUrl, auth, 1, 4); // warm up both
    await load(baselineUrl, {}, 1, 4);
    // Alternate the two in short rounds, so a burst of other load on the machine hits both alike.
    const rounds = 4;
    const throughRounds: LoadFigures[] = [];
    const plainRounds: LoadFigures[] = [];
    for (let r = 0; r < rounds; r++) {
      throughRounds.push(await load(gatedUrl, auth, seconds / rounds, connections));
      plainRounds.push(await load(baselineUrl, {}, seconds / rounds, connections));
    }
    const through = combine(throughRounds);
    const plain = combine(plainRounds);
    const list = await load(listUrl, auth, seconds, connections);
    const verification = await tokenVerification();
    const row = (name: string, f: LoadFigures) =>
      console.log(
        `  ${name.padEnd(44)} ${f.perSecond.toFixed(0).padStart(7)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   (${f.requests} ok, ${f.errors} failed)`,
      );
    console.log(`\nWorker (workerd via Miniflare on loopback, ${connections} connections, ${seconds} s each, client and server share 2 cores)`);
    row("GET detail through the Worker (token, rate limit)", through);
    row("same file, asset server, no Worker", plain);
    row("GET list page 2 of 10 through the Worker", list);
    const ratio = through.perSecond / plain.perSecond;
    console.log(
      `  Worker (with rate limiting) / no Worker throughput ratio: ${ratio.toFixed(2)} (goal: at least 0.90${ratio >= 0.9 ? ", met" : ", NOT met"})`,
    );
    console.log(
      `  token verification (Node, jose EdDSA): ${(verification.uncachedMs * 1000).toFixed(0)} µs first time per token, ${(verification.cachedMs * 1000).toFixed(1)} µs when cached`,
    );
  } finally {
    await gated.stop();
    await baseline.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, "bench", "worker.ts")) await benchWorker();
