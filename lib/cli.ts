// What every command-line entry point in scripts/ shares: a usage error (or a malformed option) prints the
// message and the usage and exits 2; any other failure is printed on one line and exits 1. Entry points
// are thin: they parse arguments with node:util parseArgs and call library code.
export class UsageError extends Error {}

/** Runs `main` on the arguments; what it returns (or its promise resolves to), when a number, is the exit code. */
export function runCommand(usage: string, main: (argv: string[]) => unknown): void {
  Promise.resolve()
    .then(() => main(process.argv.slice(2)))
    .then(
      (code) => {
        if (typeof code === "number") process.exitCode = code;
      },
      (error: unknown) => {
        const isUsage = error instanceof UsageError || String((error as { code?: unknown })?.code ?? "").startsWith("ERR_PARSE_ARGS");
        if (isUsage) {
          console.error(`${(error as Error).message}\n\n${usage}`);
          process.exitCode = 2;
          return;
        }
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      },
    );
}
