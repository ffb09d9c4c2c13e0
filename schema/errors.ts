// Every error the API answers with: its code and HTTP status, in one table. The Worker's steps throw an
// ApiError with one of these codes (functions/errors.ts), one place turns it into the JSON body
// (functions/respond.ts), and the OpenAPI document lists the codes per status from here.
export const ERROR_STATUS = {
  invalid_pagination: 400,
  invalid_parameter: 400,
  unknown_parameter: 400,
  malformed_json: 400,
  /** RFC 6750 section 3.1: an Authorization header that is not `Bearer <token>`. */
  invalid_request: 400,
  /** GET /v1/changes: a `since` inside the kept history that names no release. */
  unknown_release: 400,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  token_revoked: 401,
  wrong_environment: 401,
  insufficient_scope: 403,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** GET /v1/changes: a `since` older than the kept history; the client must download the bulk files again. */
  release_gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_id_request: 422,
  invalid_aps_request: 422,
  rate_limited: 429,
  internal_error: 500,
  misconfigured: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The codes that can come with one status, for documenting each response status. */
export function codesWithStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
}

export type { ErrorDetail } from "../lib/error-detail.ts";
