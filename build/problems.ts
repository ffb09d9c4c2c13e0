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

export type Warning = { resource: string; message: string };

export function formatProblem(p: Problem): string {
  const where = `${p.file}:${p.line}${p.column ? ` column "${p.column}"` : ""}`;
  const value = p.value === undefined ? "" : ` value ${JSON.stringify(p.value)}:`;
  return `${where}:${value} expected ${p.expected}`;
}
