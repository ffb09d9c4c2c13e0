// npm test runs the workerd suite once more only when workerd's pool failed to start a file and no test failed.
import { describe, expect, it } from "vitest";
import { filesNotStarted, poolFailedToStart } from "../../support/vitest-output.ts";

const ESC = "\x1b";
// The end of a real run where the pool could not start one file (colours as vitest prints them).
const POOL_FAULT = [
  `${ESC}[31m${ESC}[1mError${ESC}[22m: [vitest-pool]: Failed to start cloudflare-pool worker for test files /work/ci-a/test/worker/aps-compare.spec.ts.${ESC}[39m`,
  `${ESC}[31m${ESC}[1mCaused by: AssertionError${ESC}[22m: false == true${ESC}[39m`,
  "",
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[32m13 passed${ESC}[39m${ESC}[22m${ESC}[90m (13)${ESC}[39m`,
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m171 passed${ESC}[39m${ESC}[22m${ESC}[90m (171)${ESC}[39m`,
  `${ESC}[2m     Errors ${ESC}[22m ${ESC}[1m${ESC}[31m1 error${ESC}[39m${ESC}[22m`,
].join("\n");

describe("poolFailedToStart", () => {
  it("is true for a run whose only fault is the pool failing to start a file", () => {
    expect(poolFailedToStart(POOL_FAULT)).toBe(true);
  });

  it("is false when a test failed as well, or a file failed", () => {
    expect(poolFailedToStart(POOL_FAULT.replace("171 passed", "1 failed | 170 passed"))).toBe(false);
    expect(poolFailedToStart(POOL_FAULT.replace("13 passed", "1 failed | 12 passed"))).toBe(false);
  });

  it("is false when the run also counted another error, or a leak", () => {
    const twoErrors = POOL_FAULT.replace("1 error", "2 errors");
    expect(poolFailedToStart(twoErrors)).toBe(false);
    expect(poolFailedToStart(`${twoErrors}\nError: [vitest-pool]: Failed to start cloudflare-pool worker for test files b.spec.ts`)).toBe(true);
    expect(poolFailedToStart(`${POOL_FAULT}\n      Leaks  1 leak`)).toBe(false);
  });

  it("is false for any other failure, and for output without a summary", () => {
    expect(poolFailedToStart(POOL_FAULT.replace("Failed to start cloudflare-pool worker", "Unhandled rejection"))).toBe(false);
    expect(poolFailedToStart("[vitest-pool]: Failed to start cloudflare-pool worker for test files a.spec.ts")).toBe(false);
  });
});

describe("filesNotStarted", () => {
  it("names the files the pool could not start, each once, without the sentence's full stop", () => {
    expect(filesNotStarted(POOL_FAULT)).toEqual(["/work/ci-a/test/worker/aps-compare.spec.ts"]);
    const two = `${POOL_FAULT}\nError: [vitest-pool]: Failed to start cloudflare-pool worker for test files /w/test/worker/find.spec.ts.\n${POOL_FAULT}`;
    expect(filesNotStarted(two)).toEqual(["/work/ci-a/test/worker/aps-compare.spec.ts", "/w/test/worker/find.spec.ts"]);
  });

  it("is empty for a run without the pool's fault", () => {
    expect(filesNotStarted(POOL_FAULT.replace("Failed to start cloudflare-pool worker", "Unhandled rejection"))).toEqual([]);
  });
});
