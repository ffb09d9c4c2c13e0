// Opaque ids for records whose sources have no id column (schools, postal codes, bursaries,
// prospectuses). They are derived from the record's key, so they never change when other columns are
// edited or rows are added, and they look nothing like the key so clients do not parse them.
import { createHash } from "node:crypto";

export function opaqueId(prefix: string, key: string): string {
  return `${prefix}_${createHash("sha256").update(`${prefix}\u0000${key}`).digest("hex").slice(0, 16)}`;
}
