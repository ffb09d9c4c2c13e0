// Stage 2, validate: every row through its table's zod schema. All problems are collected, none stops
// the stage early, so one build run reports everything that needs fixing.
import type { RawTable } from "./load.ts";
import type { Place, Problem } from "./problems.ts";

export type ValidRow<T = Record<string, unknown>> = { at: Place; row: T };
export type ValidTable = { name: string; rows: ValidRow[] };

export function validateTables(tables: Map<string, RawTable>): { valid: Map<string, ValidTable>; problems: Problem[] } {
  const problems: Problem[] = [];
  const valid = new Map<string, ValidTable>();
  for (const [name, table] of tables) {
    const rows: ValidRow[] = [];
    for (const raw of table.rows) {
      const result = table.definition.row.safeParse(raw.cells);
      if (result.success) {
        rows.push({ at: { file: raw.file, line: raw.line }, row: result.data as Record<string, unknown> });
        continue;
      }
      for (const issue of result.error.issues) {
        const column = typeof issue.path[0] === "string" ? issue.path[0] : undefined;
        problems.push({
          file: raw.file,
          line: raw.line,
          ...(column !== undefined ? { column, value: raw.cells[column] ?? "" } : {}),
          expected: issue.message,
        });
      }
    }
    valid.set(name, { name, rows });
  }
  return { valid, problems };
}
