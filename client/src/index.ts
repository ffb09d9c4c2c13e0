// A typed client for the South African higher-education data API: one function per operation of its
// OpenAPI document, named by operationId, with the document's types (generated into ./generated/ by
// `npm run client:generate` in the API's repository). No dependency beyond fetch.
//
//   const api = createClient({ baseUrl: "https://api.sa-edu-data.co.za", token });
//   const { data, meta } = await api.listUniversities({ query: { per_page: 5 } });
//   const uct = await api.getUniversity({ path: { slug: "university-of-cape-town" } });
//   const schools = await api.getBulkFile({ path: { file: "high-schools.ndjson" } }); // the file's text
//
// A non-2xx answer is thrown as an ApiError carrying the API's error body ({status, code, message, details}).
import type { components, operations } from "./generated/openapi.js";
import { OPERATIONS, type ErrorBody, type OperationId } from "./generated/operations.js";

export type { components, operations, ErrorBody, OperationId };
export { OPERATIONS };

/** The API's record and request types, by name: `Schemas["University"]`, `Schemas["ApsRequest"]`. */
export type Schemas = components["schemas"];

type ParametersOf<Id extends OperationId> = operations[Id]["parameters"];
type PathOf<Id extends OperationId> = ParametersOf<Id> extends { path: infer P } ? P : never;
type QueryOf<Id extends OperationId> = ParametersOf<Id> extends { query?: infer Q } ? Q : never;
type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

/** What a call takes: `path` when the operation has path parameters, `query`, `body` when it takes one. */
export type Input<Id extends OperationId> = ([PathOf<Id>] extends [never] ? unknown : { path: PathOf<Id> }) &
  ([QueryOf<Id>] extends [never] ? unknown : { query?: QueryOf<Id> }) &
  ([BodyOf<Id>] extends [never] ? unknown : { body: BodyOf<Id> }) & { signal?: AbortSignal };

/** What a call resolves to: the 200 body, parsed; the file's text for an operation that answers with a file (a bulk file). */
export type Output<Id extends OperationId> = (typeof OPERATIONS)[Id] extends { text: true }
  ? string
  : operations[Id]["responses"][200]["content"] extends { "application/json": infer B }
    ? B
    : never;

type Call<Id extends OperationId> =
  Record<never, never> extends Input<Id> ? (input?: Input<Id>) => Promise<Output<Id>> : (input: Input<Id>) => Promise<Output<Id>>;

export type Client = { [Id in OperationId]: Call<Id> };

export type ClientOptions = {
  /** The API's origin, e.g. https://api.sa-edu-data.co.za or http://127.0.0.1:8787. */
  baseUrl: string;
  /** The bearer token (a JWT); every operation needs one with its scope. */
  token: string;
  /** Another fetch (a test double, a proxy-aware one); default: the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
};

/** The API answered with an error: its status and the error body it sent. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorBody["error"]["code"];
  readonly details: { path: string; message: string }[];

  constructor(
    readonly operationId: OperationId,
    readonly body: ErrorBody,
  ) {
    super(`${operationId}: ${body.error.status} ${body.error.code}: ${body.error.message}`);
    this.name = "ApiError";
    this.status = body.error.status;
    this.code = body.error.code;
    this.details = body.error.details ?? [];
  }
}

/** An answer that is not the API's (a proxy's HTML page, a body that is not JSON). */
export class UnexpectedResponseError extends Error {
  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly text: string,
  ) {
    super(`${operationId}: unexpected ${status} answer: ${text.slice(0, 200)}`);
    this.name = "UnexpectedResponseError";
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { status?: unknown; code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.status === "number" && typeof error.code === "string" && typeof error.message === "string";
}

function urlOf(baseUrl: string, template: string, input: { path?: Record<string, unknown>; query?: Record<string, unknown> }): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = input.path?.[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, "")}${path}${search ? `?${search}` : ""}`;
}

export function createClient(options: ClientOptions): Client {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const client: Record<
    string,
    (input?: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal }) => Promise<unknown>
  > = {};
  for (const [operationId, operation] of Object.entries(OPERATIONS) as [OperationId, (typeof OPERATIONS)[OperationId]][]) {
    const { method, path } = operation;
    const answersText = "text" in operation && operation.text;
    client[operationId] = async (input = {}) => {
      const accept = answersText ? "text/csv, application/x-ndjson, application/json" : "application/json";
      const headers: Record<string, string> = { accept, ...options.headers, authorization: `Bearer ${options.token}` };
      if (input.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetchImpl(urlOf(options.baseUrl, path, input), {
        method,
        headers,
        ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const text = await response.text();
      if (answersText && response.ok) return text;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new UnexpectedResponseError(operationId, response.status, text);
      }
      if (response.ok) return body;
      throw isErrorBody(body) ? new ApiError(operationId, body) : new UnexpectedResponseError(operationId, response.status, text);
    };
  }
  return client as unknown as Client;
}
