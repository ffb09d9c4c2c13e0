// The one failure type of the Worker. Any step throws an ApiError with a code from the one table
// (schema/errors.ts); index.ts turns it into the JSON error body in one place. Anything else thrown is a
// bug and becomes a logged 500 internal_error.
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../schema/errors.ts";

export type ApiErrorOptions = { details?: ErrorDetail[]; headers?: Record<string, string> };

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}
