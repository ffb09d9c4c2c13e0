// Runs one build in its own process and prints its figures as JSON, so the parent can report the
// build's own peak memory (maxRSS) without the benchmark's memory mixed in.
import { defaultBuildOptions, runBuild, type StageTiming } from "../build/index.ts";
import { ROOT } from "../support/test-dataset.ts";

const [sourcesDir, importedDir, outDir, recycle] = process.argv.slice(2);
if (!sourcesDir || !importedDir || !outDir) throw new Error("usage: build-child.ts SOURCES IMPORTED OUT [recycle]");
const timings: StageTiming[] = [];
// The file and asset limits lifted: the synthetic 10x build measures the build at that size, not the deployment's limits.
const result = await runBuild(
  defaultBuildOptions(ROOT, {
    sourcesDir,
    importedDir,
    outDir,
    maxFiles: 1_000_000,
    maxAssetBytes: Number.POSITIVE_INFINITY,
    timings,
    recyclePrevious: recycle === "recycle",
  }),
);
const figures = result.ok
  ? { ok: true, seconds: result.seconds, files: result.manifest.files, bytes: result.manifest.bytes, resources: result.manifest.resources }
  : { ok: false, seconds: result.seconds, problems: result.problems.slice(0, 5) };
console.log(JSON.stringify({ ...figures, timings, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
