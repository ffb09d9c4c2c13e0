// Time per APS calculation: answerApsRequest (validation, scoring, qualification matching) for the
// university with the most qualifications in dist/_internal/aps, its document served from memory, so the
// figure is the Worker's compute cost without the asset read.
// Run alone with `npx tsx bench/aps.ts [distDir]` (after `npm run build`), or call benchAps(distDir).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { answerApsRequest } from "../domain/aps/request.ts";
import { answerCompareRequest } from "../domain/aps/compare.ts";
import type { ApsIndex } from "../domain/aps/validation.ts";
import { targetOf } from "../domain/aps/targets.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { SCOPES } from "../domain/scopes.ts";
import { TOP_LEARNER_SUBJECTS } from "../build/aps.ts";
import { SEVEN_SUBJECTS } from "../support/learners.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A full nine-subject learner (the build's own set), plus the subjects the university's requirements name. */
function learnerFor(document: ApsUniversityDocument) {
  const base: readonly string[] = TOP_LEARNER_SUBJECTS;
  const required = document.qualifications.flatMap((q) => q.requirements.map((r) => r.subject_slug));
  const known = new Set(document.subjects.map((s) => s.slug));
  const slugs = [...new Set([...base, ...required])].filter((slug) => known.has(slug)).slice(0, 20);
  return slugs.map((subject_slug, i) => ({ subject_slug, percentage: 45 + ((i * 7) % 50) + 0.5 }));
}

export async function benchAps(distDir: string): Promise<void> {
  const folder = path.join(distDir, "_internal", "aps");
  if (!existsSync(folder)) {
    console.log(`aps: no ${folder}; run \`npm run build\` first`);
    return;
  }
  const documents = readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(folder, f), "utf8")) as ApsUniversityDocument);
  const largest = documents.reduce<ApsUniversityDocument | undefined>(
    (best, d) => (best === undefined || d.qualifications.length > best.qualifications.length ? d : best),
    undefined,
  );
  if (!largest) {
    console.log("aps: no documents");
    return;
  }
  const requirements = largest.qualifications.reduce((n, q) => n + q.requirements.length, 0);
  const body = { university_slug: largest.university.slug, marks: learnerFor(largest) };
  const load = async (slug: string) => (slug === largest.university.slug ? largest : null);

  const first = await answerApsRequest(body, load);
  if (first.status !== 200) throw new Error(`bench request rejected: ${JSON.stringify(first)}`);

  for (let i = 0; i < 2_000; i++) await answerApsRequest(body, load);
  const runs = 20_000;
  const started = performance.now();
  for (let i = 0; i < runs; i++) await answerApsRequest(body, load);
  const microseconds = ((performance.now() - started) * 1000) / runs;

  console.log(
    `aps: ${largest.university.short_name} (${largest.qualifications.length} qualifications, ${requirements} requirements, ` +
      `${body.marks.length} marks, scheme ${largest.scheme.id}): ${microseconds.toFixed(1)} µs per calculation ` +
      `(${Math.round(1e6 / microseconds).toLocaleString("en")} per second), score ${first.data.aps_score}, ` +
      `qualifies for ${first.data.qualifies_for.length}`,
  );
  await benchCompare(distDir, documents, learnerFor(largest));
}

type ColdRun = {
  files: number;
  bytes: number;
  parseMs: number;
  firstCompareMs: number;
  firstCompareMainThreadMs: number | null;
  secondCompareMs: number;
};

/**
 * The first compare of a fresh isolate, in CPU time: bench/aps-cold.ts bundled as the Worker is (esbuild, one
 * file: no TypeScript loader in the process, whose own background compiling would be counted), run in seven fresh
 * processes from the build's prepared forms, and in three from the 26 documents (the path before them). The
 * machine is shared, so the figure is the median.
 */
function benchColdCompare(distDir: string): void {
  const folder = mkdtempSync(path.join(os.tmpdir(), "aps-cold-"));
  try {
    const bundle = path.join(folder, "aps-cold.mjs");
    buildSync({
      entryPoints: [path.join(ROOT, "bench", "aps-cold.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundle,
      logLevel: "warning",
    });
    const run = (...args: string[]): ColdRun => {
      const child = spawnSync(process.execPath, [bundle, distDir, ...args], { encoding: "utf8" });
      if (child.status !== 0) throw new Error(`bench/aps-cold.ts failed: ${child.stderr}`);
      return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as ColdRun;
    };
    const prepared = Array.from({ length: 7 }, () => run());
    const documents = Array.from({ length: 3 }, () => run("--documents"));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;
    const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
    const describe = (runs: ColdRun[]) => {
      const threads = runs.flatMap((r) => (r.firstCompareMainThreadMs === null ? [] : [r.firstCompareMainThreadMs]));
      return (
        `median ${median(runs.map((r) => r.firstCompareMs)).toFixed(0)} ms (${ms(runs.map((r) => r.firstCompareMs))})` +
        (threads.length > 0 ? `, of which the main thread ${median(threads).toFixed(0)} ms` : "") +
        `; parsing ${runs[0]?.files} file(s) of ${((runs[0]?.bytes ?? 0) / 1e6).toFixed(2)} MB ${median(runs.map((r) => r.parseMs)).toFixed(0)} ms`
      );
    };
    console.log(
      `aps compare, first of a fresh isolate (CPU time of every thread, fresh processes; goal under 50 ms): ` +
        `from the build's prepared forms ${describe(prepared)}; the second compare ${ms(prepared.map((r) => r.secondCompareMs))} ms. ` +
        `From the 26 documents (before): ${describe(documents)}`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** compare for every university in Node (documents in memory), then through the Worker on loopback. */
async function benchCompare(
  distDir: string,
  documents: ApsUniversityDocument[],
  marks: { subject_slug: string; percentage: number }[],
): Promise<void> {
  const index = JSON.parse(readFileSync(path.join(distDir, "_internal", "aps-index.json"), "utf8")) as ApsIndex;
  const bySlug = new Map(documents.map((d) => [d.university.slug, d]));
  const load = async (slug: string) => bySlug.get(slug) ?? null;
  const body = { marks };
  const qualifications = documents.reduce((n, d) => n + d.qualifications.length, 0);
  // Two learners: the stress case above (every subject a requirement names: 18 to 20 marks), and a learner as
  // clients send one, with the seven subjects of a matric certificate.
  const learners = [
    { name: `${marks.length} marks (every subject a requirement names)`, body },
    { name: "7 marks (a matric certificate's subjects)", body: { marks: SEVEN_SUBJECTS } },
  ];
  benchColdCompare(distDir);
  for (const learner of learners) {
    const first = await answerCompareRequest(learner.body, index, load);
    if (first.status !== 200) throw new Error(`bench compare rejected: ${JSON.stringify(first)}`);
    for (let i = 0; i < 100; i++) await answerCompareRequest(learner.body, index, load);
    const runs = 1_000;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await answerCompareRequest(learner.body, index, load);
    const microseconds = ((performance.now() - started) * 1000) / runs;
    console.log(
      `aps compare: all ${index.universities.length} universities (${qualifications} qualifications), ${learner.name}, Node: ${(microseconds / 1000).toFixed(2)} ms per call ` +
        `(goal: under 1 ms), qualifies for ${first.data.meta.qualifies_for_total}, near misses ${first.data.data.reduce((n, u) => n + u.near_misses.length, 0)}`,
    );
  }
  benchTargets(documents);
  const { startLocalServer } = await import("../support/local-server.ts");
  const { mixedLoad } = await import("./load.ts");
  const server = await startLocalServer("bench");
  const headers = { authorization: `Bearer ${await server.token([...SCOPES])}` };
  try {
    const request = { method: "POST" as const, path: "/v1/data/aps-calculator/compare", body: JSON.stringify(body) };
    await mixedLoad(server.base, headers, [request], 1, 2); // warm the isolate: documents parsed once
    const one = await mixedLoad(server.base, headers, [request], 5, 1);
    const busy = await mixedLoad(server.base, headers, [request], 5, 8);
    console.log(
      `aps compare through the Worker (workerd via Miniflare on loopback): one client p50 ${one.p50.toFixed(1)} ms, p99 ${one.p99.toFixed(1)} ms; ` +
        `8 clients ${busy.perSecond.toFixed(0)} req/s, p50 ${busy.p50.toFixed(1)} ms`,
    );
    // The README's seven-mark learner, whole and summarised (issue 31, 4): the bytes a phone receives, and the time.
    for (const view of ["full", "summary"] as const) {
      const text = JSON.stringify({ marks: SEVEN_SUBJECTS, view });
      const response = await fetch(`${server.base}/v1/data/aps-calculator/compare`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: text,
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      const timed = await mixedLoad(server.base, headers, [{ method: "POST", path: "/v1/data/aps-calculator/compare", body: text }], 5, 1);
      console.log(
        `aps compare through the Worker, seven marks, view ${view}: ${(bytes / 1000).toFixed(0)} KB of JSON (goal for the summary: at most 100 KB); ` +
          `one client p50 ${timed.p50.toFixed(1)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  await benchAps(process.argv[2] ? path.resolve(process.argv[2]) : path.join(ROOT, "dist"));
}

/** A Grade 11 learner short of most programmes: what it would take, per programme, at every university. */
const GRADE_11 = [
  { subject_slug: "english-home-language", percentage: 58 },
  { subject_slug: "isizulu-first-additional-language", percentage: 62 },
  { subject_slug: "mathematics", percentage: 47 },
  { subject_slug: "physical-sciences", percentage: 44 },
  { subject_slug: "life-sciences", percentage: 55 },
  { subject_slug: "geography", percentage: 61 },
  { subject_slug: "life-orientation", percentage: 70 },
];

/** targets for each programme of every university (documents in memory): the time per programme, by percentile. */
function benchTargets(documents: ApsUniversityDocument[]): void {
  const times: number[] = [];
  let stopped = 0;
  for (const document of documents) {
    for (const q of document.qualifications) {
      const started = performance.now();
      const answer = targetOf(document, q, GRADE_11);
      times.push(performance.now() - started);
      if (answer.reachable === null || answer.reason.includes("search stopped")) stopped += 1;
    }
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => (times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? 0).toFixed(2);
  const mean = times.reduce((a, b) => a + b, 0) / Math.max(1, times.length);
  console.log(
    `aps targets: one programme, a Grade 11 learner, Node, over all ${times.length} programmes: mean ${mean.toFixed(2)} ms, p50 ${at(0.5)} ms, ` +
      `p90 ${at(0.9)} ms, p99 ${at(0.99)} ms (goal: under 5 ms), ${stopped} stopped at the search's bound`,
  );
}
