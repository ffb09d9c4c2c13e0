// Stage 2, validate: every row through its table's zod schema. All problems are collected, none stops
// the stage early, so one build run reports everything that needs fixing. The valid rows come out typed
// by their table's schema (ValidTables), so later stages never cast.
import type { RawTable } from "./load.ts";
import type { Place, Problem } from "./problems.ts";
import type { z } from "zod";
import { cellConverter } from "./tables/cells.ts";
import type { Row, TableDefinition } from "./tables/define.ts";

export type ValidRow<T> = { at: Place; row: T };
export type ValidRows<D extends TableDefinition> = ValidRow<Row<D>>[];
/** The valid rows of every table, keyed like the table definitions. */
export type ValidTables<T extends Record<string, TableDefinition>> = { [K in keyof T]: ValidRows<T[K]> };

type FastRow = (cells: Record<string, string>) => Record<string, unknown> | undefined;

/**
 * A row schema run without zod: when every cell schema has a converter (build/tables/cells.ts) and the object's
 * own checks are plain refinements (`.refine(fn)`, with no `when`), the row is each cell converted, in the
 * shape's order, as zod outputs it, and kept when every refinement returns true. undefined for a row with a
 * cell that does not convert or a refinement that fails: zod then parses that row for its messages.
 */
function fastRowOf(schema: z.ZodObject): FastRow | null {
  const def = schema._zod.def;
  if (def.catchall !== undefined) return null;
  const refinements: ((row: Record<string, unknown>) => unknown)[] = [];
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def as { check: string; fn?: (row: Record<string, unknown>) => unknown; when?: unknown };
    if (checkDef.check !== "custom" || typeof checkDef.fn !== "function" || checkDef.when !== undefined) return null;
    refinements.push(checkDef.fn);
  }
  const cells = Object.entries(schema.shape).map(([column, cell]) => [column, cellConverter(cell)] as const);
  if (cells.some(([, convert]) => convert === undefined)) return null;
  const converters = cells as (readonly [string, (raw: string) => unknown])[];
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [column, convert] of converters) {
      const value = raw[column];
      if (typeof value !== "string") return undefined;
      const converted = convert(value);
      if (converted === undefined) return undefined;
      row[column] = converted;
    }
    return refinements.every((refinement) => refinement(row) === true) ? row : undefined;
  };
}

function validateTable<D extends TableDefinition>(table: RawTable | undefined, problems: Problem[], fast: boolean): ValidRows<D> {
  const rows: ValidRows<D> = [];
  const fastRow = table && fast ? fastRowOf(table.definition.row) : null;
  for (const raw of table?.rows ?? []) {
    const converted = fastRow?.(raw.cells);
    if (converted !== undefined) {
      rows.push({ at: { file: raw.file, line: raw.line }, row: converted as Row<D> });
      continue;
    }
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
  /** false: every row through zod (the tests compare the two). */
  fast = true,
): { valid: ValidTables<T>; problems: Problem[] } {
  const problems: Problem[] = [];
  const valid = {} as ValidTables<T>;
  for (const key of Object.keys(definitions) as (keyof T)[]) {
    valid[key] = validateTable<T[typeof key]>(raw.get((definitions[key] as TableDefinition).name), problems, fast);
  }
  return { valid, problems };
}

export function rowCount(valid: Record<string, ValidRow<unknown>[]>): number {
  return Object.values(valid).reduce((n, rows) => n + rows.length, 0);
}
