// The first compare of a fresh isolate (issue 30, 6): run in a process of its own, so nothing is parsed or
// prepared yet. It measures CPU time (process.cpuUsage: user + system), not wall time, for what the Worker does
// on its first POST /v1/data/aps-calculator/compare (functions/aps.ts): parse the APS index and the build's
// prepared forms of the 26 universities (`_internal/aps-compare.json`, written by build/internal-documents.ts),
// compile the requirement sets the marks need and judge them. The files are read before the clock starts (in the
// Worker they come from the asset binding, I/O, not CPU). With `--documents`, the path before the build wrote the
// prepared forms: the 26 full documents parsed and prepared in the process.
// Prints one JSON line; bench/aps.ts runs it and reports it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { answerCompareRequest } from "../domain/aps/compare.ts";
import type { PreparedForm } from "../domain/aps/judging.ts";
import type { ApsIndex } from "../domain/aps/validation.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { SEVEN_SUBJECTS } from "../support/learners.ts";

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** The main thread's CPU time in ms (Linux: /proc/self/task/<pid>/schedstat, in ns), or null elsewhere. The process's
 * figure also counts the engine's background threads (optimising compiles, garbage collection helpers). */
function mainThreadMs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

async function main(distDir: string, fromDocuments: boolean): Promise<void> {
  const internal = path.join(distDir, "_internal");
  const indexText = readFileSync(path.join(internal, "aps-index.json"), "utf8");
  const texts = fromDocuments
    ? readdirSync(path.join(internal, "aps"))
        .filter((f) => f.endsWith(".json"))
        .map((f) => readFileSync(path.join(internal, "aps", f), "utf8"))
    : [readFileSync(path.join(internal, "aps-compare.json"), "utf8")];
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  // Start idle: loading this program leaves the engine's background threads (compiling what it ran hot) busy for a
  // while, and process CPU time counts every thread.
  await new Promise((resolve) => setTimeout(resolve, 250));
  const start = process.cpuUsage();
  const threadStart = mainThreadMs();
  const index = JSON.parse(indexText) as ApsIndex;
  const universities = new Map<string, ApsUniversityDocument | PreparedForm>();
  if (fromDocuments) {
    for (const text of texts) {
      const document = JSON.parse(text) as ApsUniversityDocument;
      universities.set(document.university.slug, document);
    }
  } else {
    for (const [slug, form] of Object.entries(JSON.parse(texts[0] as string) as Record<string, PreparedForm>)) universities.set(slug, form);
  }
  const parsed = cpuMs(start);
  const load = async (slug: string) => universities.get(slug) ?? null;
  const first = await answerCompareRequest({ marks: SEVEN_SUBJECTS }, index, load);
  const cold = cpuMs(start);
  const threadEnd = mainThreadMs();
  if (first.status !== 200) throw new Error(`cold compare rejected: ${JSON.stringify(first)}`);
  const warmStart = process.cpuUsage();
  await answerCompareRequest({ marks: SEVEN_SUBJECTS }, index, load);
  const warm = cpuMs(warmStart);
  console.log(
    JSON.stringify({
      files: texts.length,
      bytes,
      parseMs: parsed,
      firstCompareMs: cold,
      firstCompareMainThreadMs: threadStart === null || threadEnd === null ? null : threadEnd - threadStart,
      secondCompareMs: warm,
    }),
  );
}

const args = process.argv.slice(2);
await main(args.find((a) => !a.startsWith("--")) ?? "dist", args.includes("--documents"));
