// What npm test reads from a vitest run's output (scripts/test.ts).

/**
 * Whether a vitest run failed only because workerd's pool could not start test files: no test or file failed, and
 * every error it counts is one of those (the file it could not start did not run at all, so the run proves nothing
 * either way). Any other error, or a leak, is a failure of its own.
 */
export function poolFailedToStart(output: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary with ANSI escapes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = plain.split("\n");
  const summaries = lines.filter((line) => /^\s*(Test Files|Tests)\s/.test(line));
  const poolFaults = (plain.match(/Failed to start cloudflare-pool worker/g) ?? []).length;
  const errors = lines.map((line) => /^\s*Errors\s+(\d+) errors?\b/.exec(line)).find((match) => match !== null);
  return (
    poolFaults > 0 &&
    summaries.length > 0 &&
    summaries.every((line) => !/failed/.test(line)) &&
    errors !== undefined &&
    Number(errors[1]) === poolFaults &&
    !lines.some((line) => /^\s*Leaks\s/.test(line))
  );
}
