// Stage 2, validate: every row through its table's zod schema. All problems are collected, none stops
// the stage early, so one build run reports everything that needs fixing. The valid rows come out typed
// by their table's schema (ValidTables), so later stages never cast.
import type { RawTable } from "./load.ts";
import type { Place, Problem } from "./problems.ts";
import type { Row, TableDefinition } from "./tables/define.ts";

export type ValidRow<T> = { at: Place; row: T };
export type ValidRows<D extends TableDefinition> = ValidRow<Row<D>>[];
/** The valid rows of every table, keyed like the table definitions. */
export type ValidTables<T extends Record<string, TableDefinition>> = { [K in keyof T]: ValidRows<T[K]> };

function validateTable<D extends TableDefinition>(table: RawTable | undefined, problems: Problem[]): ValidRows<D> {
  const rows: ValidRows<D> = [];
  for (const raw of table?.rows ?? []) {
    const result = (table as RawTable).definition.row.safeParse(raw.cells);
    if (result.success) {
      // The one place a row's type is asserted: the table's own schema just produced it.
      rows.push({ at: { file: raw.file, line: raw.line }, row: result.data as Row<D> });
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
  return rows;
}

export function validateTables<T extends Record<string, TableDefinition>>(
  definitions: T,
  raw: Map<string, RawTable>,
): { valid: ValidTables<T>; problems: Problem[] } {
  const problems: Problem[] = [];
  const valid = {} as ValidTables<T>;
  for (const key of Object.keys(definitions) as (keyof T)[]) {
    valid[key] = validateTable<T[typeof key]>(raw.get((definitions[key] as TableDefinition).name), problems);
  }
  return { valid, problems };
}

export function rowCount(valid: Record<string, ValidRow<unknown>[]>): number {
  return Object.values(valid).reduce((n, rows) => n + rows.length, 0);
}
