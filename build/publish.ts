// Stage 5, publish: the new build is written beside dist/ and swapped in with two renames, so dist/ is
// never half-written. If a build is killed between the two renames, the next build (or `npm start`)
// finds the previous output parked beside it and puts it back before doing anything else.
import { mkdtemp, rename, rm, stat, readdir } from "node:fs/promises";
import path from "node:path";
import { writeFiles, type EmittedFile } from "./emit.ts";

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

function parkedName(outDir: string) {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}-previous`);
}

/** Puts back a previous output left parked by an interrupted swap, and removes abandoned staging folders. */
export async function recoverInterruptedPublish(outDir: string): Promise<void> {
  const parked = parkedName(outDir);
  if (!(await exists(outDir)) && (await exists(parked))) await rename(parked, outDir);
  await rm(parked, { recursive: true, force: true });
  const parent = path.dirname(outDir);
  const prefix = `.${path.basename(outDir)}-staging-`;
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    if (entry.startsWith(prefix)) await rm(path.join(parent, entry), { recursive: true, force: true });
  }
}

/** Writes the files into a staging folder next to outDir. */
export async function stage(outDir: string, files: EmittedFile[]): Promise<string> {
  await recoverInterruptedPublish(outDir);
  const staging = await mkdtemp(path.join(path.dirname(outDir), `.${path.basename(outDir)}-staging-`));
  try {
    await writeFiles(staging, files);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return staging;
}

/** Swaps a staged folder in as outDir. */
export async function swapIn(staging: string, outDir: string): Promise<void> {
  const parked = parkedName(outDir);
  const hadPrevious = await exists(outDir);
  if (hadPrevious) await rename(outDir, parked);
  await rename(staging, outDir);
  if (hadPrevious) await rm(parked, { recursive: true, force: true });
}
