// Writing the imported tables: CSV text in the format of sources/README.md, written atomically so the build
// never reads a half-written table (and an interrupted import leaves the previous one in place).
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

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

/** Writes `text` to `file` via a temporary file in the same folder and a rename (atomic on one filesystem). */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temporary, text, "utf8");
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
