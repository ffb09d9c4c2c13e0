// Stage 5, publish: the new build is written beside dist/ and swapped in with two renames, so dist/ is
// never half-written. If a build is killed between the two renames, the next build (or `npm start`)
// finds the previous output parked beside it and puts it back before doing anything else.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { mkdtemp, readdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EmittedFile, FileSink } from "./emit.ts";

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

function parkedName(outDir: string) {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}-previous`);
}

/** Where a replaced output waits for its removal in the background (swapIn's `previous: "background"`). */
function removedPrefix(outDir: string) {
  return `.${path.basename(outDir)}-removed-`;
}

/** Puts back a previous output left parked by an interrupted swap, and removes abandoned staging folders and replaced
 * outputs whose removal in the background did not finish. */
export async function recoverInterruptedPublish(outDir: string): Promise<void> {
  const parked = parkedName(outDir);
  if (!(await exists(outDir)) && (await exists(parked))) await rename(parked, outDir);
  if (await exists(parked)) removeFolder(parked);
  const parent = path.dirname(outDir);
  const prefixes = [`.${path.basename(outDir)}-staging-`, removedPrefix(outDir)];
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    if (prefixes.some((prefix) => entry.startsWith(prefix))) removeFolder(path.join(parent, entry));
  }
}

/** Characters of file text a staging folder keeps to read back from memory: the committed sources' 28 MiB of data files
 * fit; at national scale the rest is read back from the folder. */
const KEPT_CHARACTERS = 32 * 1024 * 1024;

/** Characters gathered before one write of a file put in parts. */
const WRITE_BATCH = 1 << 20;

/**
 * A staging folder next to outDir that the build writes each file into as it makes it (a FileSink), so the build
 * never holds every file's text at once. A file whose text is kept (KEPT_CHARACTERS) is written on the thread pool
 * while the build goes on making the next ones (its text is in memory anyway); any other is written before put
 * returns, so reading it back finds it whole. `settled` waits for the writes and throws the first that failed.
 */
export class StagingFolder implements FileSink {
  private readonly directories = new Set<string>();
  private readonly sizes = new Map<string, number>();
  /** The texts of files put, while their sum stays within KEPT_CHARACTERS: read back without a read (all of them for
   * the committed sources; the first at national scale, where the rest are read back from the folder). */
  private readonly kept = new Map<string, string>();
  private keptCharacters = 0;
  /** Writes under way, by path: a second put of a path (the manifest's) is written after the first. */
  private readonly writing = new Map<string, Promise<void>>();
  private failure: { error: unknown } | undefined;
  byteCount = 0;

  private constructor(readonly folder: string) {}

  /** Puts back an interrupted publish's output, then makes a new staging folder beside outDir. */
  static async open(outDir: string): Promise<StagingFolder> {
    await recoverInterruptedPublish(outDir);
    return new StagingFolder(await mkdtemp(path.join(path.dirname(outDir), `.${path.basename(outDir)}-staging-`)));
  }

  get paths(): string[] {
    return [...this.sizes.keys()];
  }

  put(file: EmittedFile): void {
    const full = this.pathOf(file.path);
    this.sized(file.path, Buffer.byteLength(file.content));
    const before = this.kept.get(file.path);
    if (before !== undefined) {
      this.kept.delete(file.path);
      this.keptCharacters -= before.length;
    }
    const keep = this.keptCharacters + file.content.length <= KEPT_CHARACTERS;
    if (keep) {
      this.kept.set(file.path, file.content);
      this.keptCharacters += file.content.length;
    }
    const earlier = this.writing.get(file.path);
    if (!keep && earlier === undefined) {
      writeFileSync(full, file.content);
      return;
    }
    const write: Promise<void> = (earlier ?? Promise.resolve())
      .then(() => writeFile(full, file.content))
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        if (this.writing.get(file.path) === write) this.writing.delete(file.path);
      });
    this.writing.set(file.path, write);
  }

  /** Waits for every write under way; throws the first error any of them met. */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing.values()]);
    if (this.failure) throw this.failure.error;
  }

  putParts(file: string, parts: Iterable<string>): number {
    const fd = openSync(this.pathOf(file), "w");
    let size = 0;
    try {
      // Parts are gathered into writes of about a MiB: one write per line would cost more than the lines.
      let pending = "";
      const flush = () => {
        if (pending.length === 0) return;
        const buffer = Buffer.from(pending);
        for (let at = 0; at < buffer.length; ) at += writeSync(fd, buffer, at);
        size += buffer.length;
        pending = "";
      };
      for (const part of parts) {
        pending += part;
        if (pending.length >= WRITE_BATCH) flush();
      }
      flush();
    } finally {
      closeSync(fd);
    }
    this.sized(file, size);
    return size;
  }

  private pathOf(file: string): string {
    const full = path.join(this.folder, file);
    const directory = path.dirname(full);
    if (!this.directories.has(directory)) {
      mkdirSync(directory, { recursive: true });
      this.directories.add(directory);
    }
    return full;
  }

  private sized(file: string, size: number): void {
    this.byteCount += size - (this.sizes.get(file) ?? 0);
    this.sizes.set(file, size);
  }

  read(file: string): string | undefined {
    if (!this.sizes.has(file)) return undefined;
    return this.kept.get(file) ?? readFileSync(path.join(this.folder, file), "utf8");
  }

  bytes(file: string): string | Buffer {
    return this.kept.get(file) ?? readFileSync(path.join(this.folder, file));
  }

  /** Removes the folder: the build failed, and dist/ stays as it was. */
  async discard(): Promise<void> {
    await this.settled().catch(() => {});
    removeFolder(this.folder);
  }
}

/**
 * Swaps a staged folder in as outDir. The previous output is removed before it returns, or with `previous:
 * "background"` renamed out of the way and removed by a detached `rm -rf` the caller does not wait for: removing the
 * 4,800 files of a dist/ took 0.3 to 1.4 s of waiting on the disk, a fifth of `npm run build` (scripts/build.ts asks
 * for it; the tests, the nightly rebuild and npm start keep the removal inside the call, so a folder listing after it
 * is final). A removal cut short is finished by the next build's recoverInterruptedPublish.
 */
export async function swapIn(staging: string, outDir: string, options: { previous?: "remove" | "background" } = {}): Promise<void> {
  const parked = parkedName(outDir);
  const hadPrevious = await exists(outDir);
  if (hadPrevious) await rename(outDir, parked);
  await rename(staging, outDir);
  if (!hadPrevious) return;
  if (options.previous !== "background" || process.platform === "win32") return removeFolder(parked);
  // A name of its own, so that a later build's parked output is never the one being removed.
  const removed = await mkdtemp(path.join(path.dirname(outDir), removedPrefix(outDir)));
  await rename(parked, path.join(removed, "output"));
  spawn("rm", ["-rf", "--", removed], { detached: true, stdio: "ignore" })
    .on("error", () => {})
    .unref();
}

/**
 * Removes a folder and everything in it. Node 20's recursive rm walks the tree in JavaScript, a promise per file:
 * for the 4,800 files of the previous dist/ it cost 0.5 s of CPU and more of waiting; `rm -rf` takes a tenth of it.
 */
function removeFolder(folder: string): void {
  if (process.platform !== "win32" && spawnSync("rm", ["-rf", "--", folder]).status === 0) return;
  rmSync(folder, { recursive: true, force: true });
}
