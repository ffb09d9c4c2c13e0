// The first compare of a fresh isolate (issue 30, 6): run in a process of its own, so nothing is parsed or
// prepared yet. It measures CPU time (process.cpuUsage: user + system), not wall time, for what the Worker does
// on its first POST /v1/data/aps-calculator/compare: parse the APS index and the 26 university documents, prepare
// them (requirement sets, numbering, NSC context: `prepare` in domain/aps/judging.ts) and judge the marks. The
// files are read before the clock starts (in the Worker they come from the asset binding, I/O, not CPU).
// Prints one JSON line; bench/aps.ts runs it and reports it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { answerCompareRequest } from "../domain/aps/compare.ts";
import type { ApsIndex } from "../domain/aps/validation.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { SEVEN_SUBJECTS } from "./learners.ts";

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

async function main(distDir: string): Promise<void> {
  const folder = path.join(distDir, "_internal", "aps");
  const indexText = readFileSync(path.join(distDir, "_internal", "aps-index.json"), "utf8");
  const texts = new Map(
    readdirSync(folder)
      .filter((f) => f.endsWith(".json"))
      .map((f) => [f.replace(/\.json$/, ""), readFileSync(path.join(folder, f), "utf8")]),
  );
  const bytes = [...texts.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
  const start = process.cpuUsage();
  const index = JSON.parse(indexText) as ApsIndex;
  const documents = new Map<string, ApsUniversityDocument>();
  for (const [slug, text] of texts) documents.set(slug, JSON.parse(text) as ApsUniversityDocument);
  const parsed = cpuMs(start);
  const first = await answerCompareRequest({ marks: SEVEN_SUBJECTS }, index, async (slug) => documents.get(slug) ?? null);
  const cold = cpuMs(start);
  if (first.status !== 200) throw new Error(`cold compare rejected: ${JSON.stringify(first)}`);
  const warmStart = process.cpuUsage();
  await answerCompareRequest({ marks: SEVEN_SUBJECTS }, index, async (slug) => documents.get(slug) ?? null);
  const warm = cpuMs(warmStart);
  console.log(JSON.stringify({ documents: texts.size, bytes, parseMs: parsed, firstCompareMs: cold, secondCompareMs: warm }));
}

await main(process.argv[2] ?? "dist");
