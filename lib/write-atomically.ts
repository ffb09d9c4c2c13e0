// Writing a file so that a reader never sees it half-written: the imported tables, the release history.
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

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
