// Opaque ids for records whose sources have no id column (schools, postal codes, bursaries,
// prospectuses). They are derived from the record's key, so they never change when other columns are
// edited or rows are added, and they look nothing like the key so clients do not parse them.
import * as crypto from "node:crypto";

/** crypto.hash (Node 20.12 and later): one call, about twice as fast as createHash for a short text (issue 31). */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** The SHA-256 of a text (as UTF-8), in hex. */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}

export function opaqueId(prefix: string, key: string): string {
  return `${prefix}_${sha256Hex(`${prefix}\u0000${key}`).slice(0, 16)}`;
}
