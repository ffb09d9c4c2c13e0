// The two computations (POST). The plumbing is shared: JSON content type (415), a 16 KiB body limit
// (413), well-formed JSON (400); then the pure domain modules do the work.
import { parseIdNumber } from "../domain/id-number.ts";
import { todayInJohannesburg } from "../lib/dates.ts";
import type { Env } from "./env.ts";
import { errorResponse, jsonResponse } from "./respond.ts";

export const MAX_BODY_BYTES = 16 * 1024;

type Body = { ok: true; value: unknown } | { ok: false; response: Response };

function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const mediaType = header.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

export async function readJsonBody(request: Request): Promise<Body> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return {
      ok: false,
      response: errorResponse(415, "unsupported_media_type", "Send the request body as JSON with Content-Type: application/json"),
    };
  }
  const tooLarge = () => ({
    ok: false as const,
    response: errorResponse(413, "payload_too_large", `The request body may be at most ${MAX_BODY_BYTES} bytes`),
  });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  if (bytes === null) return tooLarge();
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false, response: errorResponse(400, "malformed_json", "The request body is not well-formed JSON (UTF-8)") };
  }
}

export function computeIdParse(body: unknown, now: Date): Response {
  const idNumber = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).id_number : undefined;
  if (typeof idNumber !== "string") {
    return errorResponse(422, "invalid_id_request", "The body must be a JSON object with a string id_number", {
      details: [{ path: "id_number", message: idNumber === undefined ? "is required" : "must be a string" }],
    });
  }
  const parsed = parseIdNumber(idNumber, todayInJohannesburg(now));
  return jsonResponse(JSON.stringify({ data: parsed }), 200, { "cache-control": "no-store" });
}

export type { Env };
