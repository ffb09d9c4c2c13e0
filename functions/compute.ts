// The ID parser, and the plumbing both computations (POST) share: JSON content type (415), a 16 KiB body limit
// (413), well-formed JSON (400); then the pure domain modules do the work.
import { IdParseRequestSchema, parseIdNumber } from "../domain/id-number.ts";
import { todayInJohannesburg } from "../lib/dates.ts";
import { ApiError } from "./errors.ts";
import { jsonResponse } from "./respond.ts";

const MAX_BODY_BYTES = 16 * 1024;

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

/** The request's JSON body: application/json (415), at most 16 KiB (413), well-formed UTF-8 JSON (400). */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new ApiError("unsupported_media_type", "Send the request body as JSON with Content-Type: application/json");
  }
  const tooLarge = () => new ApiError("payload_too_large", `The request body may be at most ${MAX_BODY_BYTES} bytes`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();
  try {
    // ignoreBOM false is the default (a leading BOM is dropped); workerd's types ask for both options.
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw new ApiError("malformed_json", "The request body is not well-formed JSON (UTF-8)");
  }
}

export function answerIdParse(body: unknown, now: Date): Response {
  // Anything but an object has no id_number: it is missing, as from an object without one.
  const request = IdParseRequestSchema.safeParse(typeof body === "object" && body !== null && !Array.isArray(body) ? body : {});
  if (!request.success) {
    throw new ApiError("invalid_id_request", "The body must be a JSON object with a string id_number", {
      details: [{ path: "id_number", message: request.error.issues[0]?.message ?? "is required" }],
    });
  }
  const parsed = parseIdNumber(request.data.id_number, todayInJohannesburg(now));
  return jsonResponse(JSON.stringify({ data: parsed }), 200, { "cache-control": "no-store" });
}
