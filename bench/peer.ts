// npm run bench -- peer: our Worker against the server a user would write instead (bench/peer-server.ts: plain
// Node HTTP over SQLite FTS5, loaded from the same built data), on the same URLs. Our side is the tests' local
// server (support/local-server.ts: workerd run by Miniflare with a socket straight to the Worker, no wrangler
// proxy; token check and rate limiting on every request, the
// secret token's limit of test/worker/wrangler.jsonc high enough that it never trips). The bodies are checked
// byte for byte before any timing; then each query runs in alternating rounds, ours then the peer's, at 16
// connections, and the ratios are printed against the goals of issue 31.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startLocalServer } from "../support/local-server.ts";
import { prepareTestDataset, ROOT, TEST_DIST } from "../support/test-dataset.ts";
import { combine, load, type LoadFigures } from "./worker.ts";

const QUERIES = {
  detail: { label: "a school's detail record", path: "" },
  list: { label: "a list page of 100 schools", path: "/v1/data/high-schools?page=3&per_page=100" },
  filtered: { label: "province + quintile filter", path: "/v1/data/high-schools?province=gauteng&quintile=5&page=2" },
  search: { label: "name search q=pretoria boys", path: "/v1/data/high-schools?q=pretoria%20boys" },
  postal: { label: "postal-code search q=hatfield", path: "/v1/data/postal-codes?q=hatfield" },
};
type Query = keyof typeof QUERIES;

const GOALS = { detail: 0.25, any: 0.2 };

/** The peer in a Node process of its own (bench/peer-server.ts), as our Worker is in workerd's. */
async function startPeer(dist: string) {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "bench/peer-server.ts"), dist], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  return {
    base: line.trim(),
    stop: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

export async function benchPeer(secondsPerRound = 3, rounds = 3, connections = 16): Promise<boolean> {
  await prepareTestDataset();
  const ours = await startLocalServer("bench-peer");
  const peer = await startPeer(TEST_DIST);
  try {
    const auth = { authorization: `Bearer ${await ours.token(["high_schools:read", "postal_codes:read"])}` };
    const found = (await (await fetch(`${ours.base}${QUERIES.search.path}`, { headers: auth })).json()) as { data: { id: string }[] };
    QUERIES.detail.path = `/v1/data/high-schools/${found.data[0]?.id}`;
    const names = Object.keys(QUERIES) as Query[];

    // Same answers, byte for byte, or no figures.
    for (const name of names) {
      const url = QUERIES[name].path;
      const [a, b] = await Promise.all([fetch(`${ours.base}${url}`, { headers: auth }), fetch(`${peer.base}${url}`)]);
      const [textA, textB] = await Promise.all([a.text(), b.text()]);
      if (a.status !== 200 || b.status !== 200 || textA !== textB)
        throw new Error(`${url}: the peer's answer differs from ours (${a.status} ${textA.length} bytes vs ${b.status} ${textB.length} bytes)`);
    }
    for (const name of names) {
      await load(`${ours.base}${QUERIES[name].path}`, auth, 0.5, 4);
      await load(`${peer.base}${QUERIES[name].path}`, {}, 0.5, 4);
    }

    const figures = new Map(names.map((name) => [name, { ours: [] as LoadFigures[], peer: [] as LoadFigures[] }]));
    for (let r = 0; r < rounds; r++) {
      for (const name of names) {
        const f = figures.get(name);
        f?.ours.push(await load(`${ours.base}${QUERIES[name].path}`, auth, secondsPerRound, connections));
        f?.peer.push(await load(`${peer.base}${QUERIES[name].path}`, {}, secondsPerRound, connections));
      }
    }

    console.log(
      `\nPeer: our Worker (workerd via Miniflare, support/local-server.ts, token and rate limit on) vs plain Node + SQLite FTS5 (node-sqlite3-wasm), ` +
        `byte-identical bodies, ${connections} connections, ${rounds} alternating rounds of ${secondsPerRound} s`,
    );
    console.log(`  ${"query".padEnd(32)} ${"ours req/s".padStart(10)} ${"peer req/s".padStart(10)}  ratio   p50 ours / peer   failed`);
    const ratios = new Map<Query, number>();
    const perSecond = new Map<Query, number>();
    for (const name of names) {
      const f = figures.get(name);
      if (!f) continue;
      const a = combine(f.ours);
      const b = combine(f.peer);
      ratios.set(name, a.perSecond / b.perSecond);
      perSecond.set(name, a.perSecond);
      console.log(
        `  ${QUERIES[name].label.padEnd(32)} ${a.perSecond.toFixed(0).padStart(10)} ${b.perSecond.toFixed(0).padStart(10)}  ${(a.perSecond / b.perSecond).toFixed(2).padStart(5)}  ${a.p50.toFixed(1).padStart(6)} / ${b.p50.toFixed(1).padEnd(6)} ms  ${a.errors + b.errors}`,
      );
    }
    const detail = ratios.get("detail") ?? 0;
    const lowest = Math.min(...ratios.values());
    const detailVsFiltered = (perSecond.get("detail") ?? 0) / (perSecond.get("filtered") ?? 1);
    const verdict = (met: boolean) => (met ? "met" : "NOT met");
    console.log(`  goals: detail at least ${GOALS.detail} of the peer: ${detail.toFixed(2)}, ${verdict(detail >= GOALS.detail)}`);
    console.log(`         no query below ${GOALS.any}: lowest ${lowest.toFixed(2)}, ${verdict(lowest >= GOALS.any)}`);
    console.log(
      `         detail at least as fast as the filtered query on our server: ${detailVsFiltered.toFixed(2)}x, ${verdict(detailVsFiltered >= 1)}`,
    );
    return [...figures.values()].every((f) => [...f.ours, ...f.peer].every((r) => r.errors === 0));
  } finally {
    await peer.stop();
    await ours.stop();
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchPeer();
