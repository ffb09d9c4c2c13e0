// What the pipeline needs to know about a source table: where its files are, the zod schema of one row,
// its key, and the columns that refer to other tables. The stages (load, validate, link) are generic over this.
import type { z } from "zod";

type Reference = {
  /** Column in this table. Empty cells are not checked (optionality is the row schema's business). */
  column: string;
  /** Table and column the value must exist in. */
  table: string;
  targetColumn: string;
};

export type TableDefinition<Schema extends z.ZodObject = z.ZodObject> = {
  name: string;
  /** fast-glob pattern(s) relative to the sources folder. */
  patterns: string[];
  /** A national table written by `npm run import` (committed in sources/): an override folder given to the
   * build (`--imported DIR`, the nightly rebuild's fresh import) replaces it when it holds the table's file. */
  imported?: boolean;
  /** How to fill the table when it has no rows, shown as a build warning. */
  whenEmpty?: string;
  row: Schema;
  /** Columns whose values together must be unique in the table. */
  key: string[];
  references?: Reference[];
};

export type Row<T extends TableDefinition> = z.output<T["row"]>;

export function defineTable<Schema extends z.ZodObject>(definition: TableDefinition<Schema>): TableDefinition<Schema> {
  return definition;
}
