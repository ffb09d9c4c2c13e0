// A problem is something wrong in the sources that stops the build; a warning is something a person
// should know but that does not stop it. Both point at the exact place to fix.

export type Place = { file: string; line: number };

export type Problem = Place & {
  column?: string;
  value?: string;
  expected: string;
  /** The file could not be read at all (not CSV, wrong header): reported first, and checks that need its
   * table are skipped rather than flooding the report with knock-on problems. */
  fatal?: boolean;
};

/**
 * Something in the data worth knowing that does not stop the build. `kind` names what sort of thing it is, the
 * same text for every warning of that sort, naming what `count` counts (default 1); the summary prints one line
 * per kind with the sum of its counts. `message` gives the details (npm run build -- --verbose, or the warnings file the summary names).
 */
export type Warning = { resource: string; kind: string; message: string; count?: number };

export function formatProblem(p: Problem): string {
  const where = `${p.file}:${p.line}${p.column ? ` column "${p.column}"` : ""}`;
  const value = p.value === undefined ? "" : ` value ${JSON.stringify(p.value)}:`;
  return `${where}:${value} expected ${p.expected}`;
}
