// Pagination rules shared by the build (which lays list data out in chunks) and the Worker (which
// validates page/per_page and slices at most two chunks per request).
import type { ErrorDetail } from "./error-detail.ts";

export const DEFAULT_PAGE = 1;
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Records per list chunk file. At least MAX_PER_PAGE, so that any page spans at most two chunks. */
export const LIST_CHUNK_SIZE = 100;

export type PageRequest = { page: number; per_page: number };

const POSITIVE_INTEGER = /^[1-9][0-9]{0,8}$/;

/** Reads page/per_page from a query string; null parameters take their defaults. */
export function parsePageRequest(page: string | null, perPage: string | null): PageRequest | ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const parsedPage = page === null ? DEFAULT_PAGE : POSITIVE_INTEGER.test(page) ? Number(page) : NaN;
  if (Number.isNaN(parsedPage)) problems.push({ path: "page", message: "must be a positive integer" });
  const parsedPerPage = perPage === null ? DEFAULT_PER_PAGE : POSITIVE_INTEGER.test(perPage) ? Number(perPage) : NaN;
  if (Number.isNaN(parsedPerPage) || parsedPerPage > MAX_PER_PAGE) {
    problems.push({ path: "per_page", message: `must be an integer from 1 to ${MAX_PER_PAGE}` });
  }
  return problems.length > 0 ? problems : { page: parsedPage, per_page: parsedPerPage };
}

/** Which chunks hold the records of a page, and where the page starts inside the first of them. */
export function chunksForPage(request: PageRequest, total: number, chunkSize = LIST_CHUNK_SIZE) {
  const start = (request.page - 1) * request.per_page;
  if (start >= total) return { chunks: [] as number[], offset: 0, count: 0 };
  const end = Math.min(start + request.per_page, total);
  const first = Math.floor(start / chunkSize);
  const last = Math.floor((end - 1) / chunkSize);
  const chunks: number[] = [];
  for (let k = first; k <= last; k++) chunks.push(k);
  return { chunks, offset: start - first * chunkSize, count: end - start };
}
