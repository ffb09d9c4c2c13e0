// npm run bench -- load [--seconds N] [--connections N]: a bounded mixed load against the local server
// (support/local-server.ts: workerd run by Miniflare on loopback, the test data set): detail and list GETs,
// APS and ID POSTs, at 32 keep-alive connections for a fixed time. Prints requests per second, p50/p99 and the
// non-2xx answers by status, and fails (exit code 1) on any 5xx. Bounded in time only: the cap of 60,000
// requests it had kept it under the ~75,000 after which wrangler dev 4.86.0's own proxy ran out of heap, and
// no wrangler process is on this path any more (README, Benchmarks).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { SCOPES } from "../domain/scopes.ts";
import { performance } from "node:perf_hooks";
import { freePort } from "../lib/ports.ts";
import { type IsolateHeap, isolateHeaps } from "./isolate-heaps.ts";
import { formatCurve } from "./memory-curve.ts";
import { startLocalServer } from "../support/local-server.ts";
import { ensureDevKeys } from "../support/signing-keys.ts";
import { ROOT } from "../support/test-dataset.ts";
import { signToken } from "../support/tokens.ts";

export type LoadRequest = { method: "GET" | "POST"; path: string; body?: string };
export type MixedFigures = {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  byStatus: Map<number, number>;
  failures: number;
};

export async function mixedLoad(
  origin: string,
  /** One set of headers, or a pool, taken in turn: request i sends with pool[i % pool.length] (several tokens, as several clients). */
  headersOrPool: Record<string, string> | Record<string, string>[],
  requests: LoadRequest[],
  seconds: number,
  connections: number,
  maxRequests = Number.POSITIVE_INFINITY,
): Promise<MixedFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const byStatus = new Map<number, number>();
  let failures = 0;
  let sent = 0;
  const end = performance.now() + seconds * 1000;
  const pool = Array.isArray(headersOrPool) ? headersOrPool : [headersOrPool];
  const one = (spec: LoadRequest, headers: Record<string, string>) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.request(
        `${origin}${spec.path}`,
        {
          agent,
          method: spec.method,
          headers:
            spec.body === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(spec.body) },
        },
        (response) => {
          response.resume();
          response.on("end", () => {
            latencies.push(performance.now() - started);
            byStatus.set(response.statusCode ?? 0, (byStatus.get(response.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
        },
      );
      request.on("error", () => {
        failures++;
        resolve();
      });
      request.end(spec.body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, lane) => {
      for (let i = lane; performance.now() < end && sent < maxRequests; i += connections) {
        sent++;
        await one(requests[i % requests.length] as LoadRequest, pool[i % pool.length] as Record<string, string>);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), byStatus, failures };
}

const MARKS = [
  { subject_slug: "english-home-language", percentage: 72 },
  { subject_slug: "mathematics", percentage: 64 },
  { subject_slug: "physical-sciences", percentage: 58 },
  { subject_slug: "life-sciences", percentage: 69 },
  { subject_slug: "geography", percentage: 75 },
  { subject_slug: "isizulu-first-additional-language", percentage: 81 },
  { subject_slug: "life-orientation", percentage: 85 },
];

/** The mix: what an application portal sends, detail and list reads first among them. */
async function loadMix(origin: string, headers: Record<string, string>): Promise<LoadRequest[]> {
  const get = async (path: string) => {
    const response = await fetch(`${origin}${path}`, { headers });
    return (await response.json()) as { data: { id: string; slug?: string }[] };
  };
  const universities = (await get("/v1/data/universities?per_page=100")).data;
  const qualifications = (await get("/v1/data/qualifications?per_page=100")).data;
  const schools = (await get("/v1/data/high-schools?per_page=100&page=3")).data;
  const mix: LoadRequest[] = [];
  universities.forEach((u, i) => {
    mix.push({ method: "GET", path: `/v1/data/universities/${u.slug}` });
    mix.push({ method: "GET", path: `/v1/data/qualifications?page=${(i % 5) + 1}&per_page=${[10, 20, 50, 100][i % 4]}` });
    const q = qualifications[i % Math.max(1, qualifications.length)];
    if (q) mix.push({ method: "GET", path: `/v1/data/qualifications/${q.id}/requirements` });
    const s = schools[i % Math.max(1, schools.length)];
    if (s) mix.push({ method: "GET", path: `/v1/data/high-schools/${s.id}` });
    mix.push({ method: "POST", path: "/v1/data/aps-calculator", body: JSON.stringify({ university_slug: u.slug, marks: MARKS }) });
    mix.push({ method: "POST", path: "/v1/id/parse", body: JSON.stringify({ id_number: `0${(i % 9) + 1}0229500908${i % 10}` }) });
  });
  // The heavy ones, as a portal sends them now and then: the comparison at all 26 universities, and find's filters
  // and name search over the largest lists.
  for (const path of [
    "/v1/data/high-schools?province=gauteng&quintile=5&page=2",
    "/v1/data/high-schools?q=pretoria%20boys",
    "/v1/data/postal-codes?q=hatfield",
    "/v1/data/qualifications?university_slug=university-of-pretoria&per_page=50",
  ])
    mix.push({ method: "GET", path });
  mix.push({ method: "POST", path: "/v1/data/aps-calculator/compare", body: JSON.stringify({ marks: MARKS }) });
  return mix;
}

/** No 5xx and no connection failure; says what failed otherwise. */
function loadHeld(figures: MixedFigures): boolean {
  const errors = [...figures.byStatus].filter(([status]) => status >= 500).reduce((n, [, count]) => n + count, 0);
  if (errors === 0 && figures.failures === 0) return true;
  console.error(`\nLOAD FAILED: ${errors} response(s) with status 5xx, ${figures.failures} connection failure(s)`);
  return false;
}

function formatMixed(title: string, f: MixedFigures): string {
  const other = [...f.byStatus].filter(([status]) => status < 200 || status >= 300).sort(([a], [b]) => a - b);
  const non2xx = other.length === 0 ? "none" : other.map(([status, n]) => `${status}: ${n}`).join(", ");
  return (
    `  ${title}\n` +
    `    ${f.requests} requests, ${f.perSecond.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms\n` +
    `    non-2xx by status: ${non2xx}; connection failures: ${f.failures}`
  );
}

export async function benchLoad(seconds = 60, connections = 32): Promise<boolean> {
  const server = await startLocalServer("bench");
  // A pool of eight secret tokens, as eight server clients, taken in turn.
  const pool = await Promise.all(Array.from({ length: 8 }, async () => ({ authorization: `Bearer ${await server.token([...SCOPES])}` })));
  try {
    const mix = await loadMix(server.base, pool[0] as Record<string, string>);
    const figures = await mixedLoad(server.base, pool, mix, seconds, connections);
    console.log(`\nMixed load (${connections} connections, ${seconds} s, ${mix.length} distinct requests in rotation, ${pool.length} tokens)`);
    console.log(formatMixed("GET detail/list/requirements/school, find (filters, name search), POST APS, compare and ID", figures));
    return loadHeld(figures);
  } finally {
    await server.stop();
  }
}

/** A process and its descendants with their resident memory, from /proc (Linux). */
function processTree(pid: number): { pid: number; name: string; rssMiB: number }[] {
  const read = (p: number, file: string) => {
    try {
      return readFileSync(`/proc/${p}/${file}`, "utf8");
    } catch {
      return "";
    }
  };
  const children = (p: number) =>
    readdirSync(`/proc/${p}/task`, { withFileTypes: true }).flatMap((t) =>
      read(p, `task/${t.name}/children`)
        .split(" ")
        .filter((c) => c.trim() !== "")
        .map(Number),
    );
  const rss = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(read(p, "status"))?.[1] ?? 0) / 1024;
  const name = (p: number) => {
    const args = read(p, "cmdline").split("\0").filter(Boolean);
    const script = args.find((a) => a.endsWith(".ts"));
    return script ? `node ${path.relative(ROOT, script)}` : path.basename(args.find((a) => !a.startsWith("-")) ?? "?");
  };
  const out: { pid: number; name: string; rssMiB: number }[] = [];
  const walk = (p: number) => {
    out.push({ pid: p, name: name(p), rssMiB: rss(p) });
    for (const c of children(p)) walk(c);
  };
  walk(pid);
  return out;
}

/** Seconds between two samples of workerd's resident memory during load-start. */
const RSS_EVERY_S = 10;

/** workerd's resident memory in MiB, in the process tree of `pid` (or in a tree read before). */
function workerdRss(pid: number, tree = processTree(pid)): number {
  return tree.filter((p) => p.name === "workerd").reduce((sum, p) => sum + p.rssMiB, 0);
}

const formatTree = (tree: ReturnType<typeof processTree>) => tree.map((p) => `${p.name} (pid ${p.pid}) ${p.rssMiB.toFixed(0)} MiB`).join(", ");

/**
 * The same mixed load against `npm start` itself (issue 31): the command a user runs, on dist/ and wrangler.jsonc's
 * settings (so a pool of 16 tokens per connection, taken in turn, keeps every token under its own 600 a minute up to
 * 16 x 32 x 600 / 60 = 5,120 req/s at 32 connections, above what this machine serves), with the
 * resident memory of each of its processes before and after. Fails on any 5xx or connection failure.
 */
export async function benchLoadAgainstStart(seconds = 60, connections = 32): Promise<boolean> {
  const [port, embedPort, inspectorPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), EMBED_PORT: String(embedPort), INSPECTOR_PORT: String(inspectorPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  try {
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (output.includes("Ready on")) resolve(clearInterval(check));
        if (child.exitCode !== null) reject(new Error(`npm start stopped: ${output}`));
      }, 100);
    });
    const origin = `http://127.0.0.1:${port}`;
    const key = await ensureDevKeys();
    const pool = await Promise.all(
      Array.from({ length: connections * 16 }, async (_, i) => ({
        authorization: `Bearer ${await signToken({ scopes: [...SCOPES], env: "test", expiresInSeconds: 3600, sub: `load-${i}` }, key)}`,
      })),
    );
    const before = processTree(child.pid ?? 0);
    const mix = await loadMix(origin, pool[0] as Record<string, string>);
    // workerd's resident memory, and its isolates' V8 heaps, every RSS_EVERY_S seconds through the run: whether
    // it levels off, and how much of it is JavaScript's (our Worker's caches among it) rather than workerd's own.
    const curve: number[] = [];
    const heaps: IsolateHeap[][] = [];
    const sampler = setInterval(() => {
      curve.push(workerdRss(child.pid ?? 0));
      const at = heaps.length;
      heaps.push([]);
      isolateHeaps(inspectorPort).then(
        (h) => (heaps[at] = h),
        () => {},
      );
    }, RSS_EVERY_S * 1000);
    const figures = await mixedLoad(origin, pool, mix, seconds, connections).finally(() => clearInterval(sampler));
    const after = processTree(child.pid ?? 0);
    const heapsAfter = await isolateHeaps(inspectorPort);
    console.log(`\nMixed load against npm start itself (${connections} connections, ${seconds} s, ${pool.length} tokens)`);
    console.log(formatMixed("the same mix, on dist/ with wrangler.jsonc's settings", figures));
    console.log(`    memory before: ${formatTree(before)}`);
    console.log(`    memory after:  ${formatTree(after)}`);
    console.log(formatCurve(workerdRss(child.pid ?? 0, before), curve, RSS_EVERY_S));
    const total = (h: IsolateHeap[]) => h.reduce((sum, i) => sum + i.totalMiB, 0);
    console.log(
      `    V8 heaps of workerd's ${heapsAfter.length} isolates every ${RSS_EVERY_S} s (MiB reserved): ${heaps.map((h) => (h.length ? total(h).toFixed(0) : "?")).join(", ")}`,
    );
    const largest = [...heapsAfter].sort((a, b) => b.totalMiB - a.totalMiB).slice(0, 3);
    console.log(
      `    after: ${total(heapsAfter).toFixed(0)} MiB of V8 heap in all (${largest.map((i) => `${i.name} ${i.usedMiB.toFixed(0)} used of ${i.totalMiB.toFixed(0)}`).join(", ")}, ...); the rest of workerd's RSS is its own (native) memory`,
    );
    return loadHeld(figures);
  } finally {
    child.kill("SIGINT");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
  }
}
