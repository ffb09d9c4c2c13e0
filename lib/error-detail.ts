// The one type of a field problem in an error body's `details` (schema/api.ts ErrorDetail is its schema): the
// exact path a client can point at (a query parameter, or a body field such as `marks[2].percentage`) and what
// was expected there. Query parsing (lib/pagination.ts, functions/query.ts), the APS request checks
// (domain/aps/validation.ts) and the Worker's ApiError (functions/errors.ts) all use it.
export type ErrorDetail = { path: string; message: string };
