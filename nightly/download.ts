// Downloads for the nightly rebuild: every attempt has a timeout, failures that may pass (network
// errors, timeouts, 5xx, 408, 429) are retried with a growing pause, bodies over the size limit are cut
// off, and every failure names the URL. A file is written under a temporary name and renamed only when
// complete, so a failed download never leaves a partial file that a later step could import.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";

export type DownloadOptions = {
  timeoutMs: number;
  attempts: number;
  maxBytes: number;
  /** Pause before retry n (1-based) is n × retryDelayMs. */
  retryDelayMs?: number;
};

class DownloadError extends Error {
  constructor(
    readonly url: string,
    reason: string,
    readonly attempts: number,
  ) {
    super(`download failed: ${url}: ${reason}${attempts > 1 ? ` (after ${attempts} attempts)` : ""}`);
  }
}

/** A failure worth another attempt, or one that will not change (a 404, a body over the limit). */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

async function attemptDownload(url: string, file: string, options: DownloadOptions): Promise<number> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const partial = `${file}.partial`;
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: "follow" });
    } catch (error) {
      throw new AttemptError(controller.signal.aborted ? `no answer within ${options.timeoutMs / 1000} s` : describe(error), true);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new AttemptError(`HTTP ${response.status} ${response.statusText}`.trim(), RETRYABLE_STATUS.has(response.status));
    }
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > options.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new AttemptError(`the server announces ${declared} bytes, over the limit of ${options.maxBytes}`, false);
    }
    if (response.body === null) throw new AttemptError("empty response body", true);

    const out = createWriteStream(partial);
    let bytes = 0;
    try {
      const reader = response.body.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw new AttemptError(controller.signal.aborted ? `the transfer took longer than ${options.timeoutMs / 1000} s` : describe(error), true);
        }
        if (chunk.done) break;
        bytes += chunk.value.byteLength;
        if (bytes > options.maxBytes) {
          await reader.cancel().catch(() => {});
          throw new AttemptError(`the body passed the limit of ${options.maxBytes} bytes`, false);
        }
        if (!out.write(chunk.value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
    if (bytes === 0) throw new AttemptError("empty response body", true);
    await rename(partial, file);
    return bytes;
  } finally {
    clearTimeout(timer);
    await rm(partial, { force: true });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${error.message} (${cause.code})` : cause?.message ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** Downloads url into file; returns the number of bytes, or throws a DownloadError naming the URL. */
export async function downloadFile(url: string, file: string, options: DownloadOptions): Promise<number> {
  const delay = options.retryDelayMs ?? 2_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptDownload(url, file, options);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retryable = error instanceof AttemptError ? error.retryable : false;
      if (!retryable || attempt >= options.attempts) throw new DownloadError(url, reason, attempt);
      await new Promise((resolve) => setTimeout(resolve, attempt * delay));
    }
  }
}
