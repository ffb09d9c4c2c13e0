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

/** The test files the pool could not start, as the run names them (absolute paths), in order, each once. */
export function filesNotStarted(output: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its errors with ANSI escapes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const files = [...plain.matchAll(/Failed to start cloudflare-pool worker for test files (.+?)\.?$/gm)].flatMap((match) =>
    (match[1] ?? "").split(/,\s*/).filter((file) => file.length > 0),
  );
  return [...new Set(files)];
}
