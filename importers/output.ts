// Writing the imported tables: CSV text in the format of sources/README.md, written atomically
// (lib/write-atomically.ts) so the build never reads a half-written table.

export type CellValue = string | number | null;

/** Quotes a cell only when CSV needs it (comma, quote, line break, or outer spaces). */
function csvCell(value: CellValue): string {
  if (value === null) return "";
  const text = typeof value === "number" ? formatNumber(value) : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Plain decimal notation (never `1e-7`), so the build's decimal cells accept every value. */
function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
}

export function toCsv<C extends string>(columns: readonly C[], rows: readonly Record<C, CellValue>[]): string {
  const lines = [columns.join(",")];
  for (const row of rows) lines.push(columns.map((column) => csvCell(row[column])).join(","));
  return `${lines.join("\n")}\n`;
}
