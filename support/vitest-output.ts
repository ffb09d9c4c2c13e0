// What npm test reads from a vitest run's output (scripts/test.ts).

/** Whether a vitest run failed only because workerd's pool could not start a test file: its own error, with no test
 * or file failed (the file it could not start did not run at all, so the run proves nothing either way). */
export function poolFailedToStart(output: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its summary with ANSI escapes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const summaries = plain.split("\n").filter((line) => /^\s*(Test Files|Tests)\s/.test(line));
  return /Failed to start cloudflare-pool worker/.test(plain) && summaries.length > 0 && summaries.every((line) => !/failed/.test(line));
}
