// The contract between the OpenAPI document and what is served: a response is checked against the schema
// the document gives for its operation and status. Objects are closed for the check (a field the document
// does not name fails), although the published document leaves them open for fields added later.
// Pure (no Node built-ins): the workerd suite checks every response with it, the Node suites their examples.
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { ErrorBody } from "../../schema/api.ts";

/**
 * Parsed JSON whose shape a test checks itself (with expect, and against the OpenAPI document's schemas): typed as
 * loosely as JSON.parse's own result, so a test reads any field of an answer or a document.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON.parse's own result type; what the value holds is what the tests check
export type Json = any;
type JsonObject = Record<string, Json>;

export type OpenApiDocument = { paths: Record<string, Record<string, JsonObject>>; components: JsonObject };

/** Every object schema that names its properties, closed: additionalProperties false unless it says otherwise. */
function closed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closed);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closed(v)]));
  if (out.type === "object" && out.properties && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export class Contract {
  private readonly components: JsonObject;
  private readonly templates: { path: string; pattern: RegExp }[];
  private readonly validators = new Map<string, Validator>();

  constructor(private readonly document: OpenApiDocument) {
    this.components = closed(document.components) as JsonObject;
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{\w+\\\}/g, "[^/]+")}$`),
    }));
  }

  /** The documented operation for a method and path (HEAD is GET without a body), or null. */
  operation(method: string, pathname: string): { path: string; method: string; operation: JsonObject } | null {
    const m = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
    if (!(METHODS as readonly string[]).includes(m)) return null;
    const template = this.templates.find((t) => t.pattern.test(pathname));
    const operation = template ? this.document.paths[template.path]?.[m] : undefined;
    return template && operation ? { path: template.path, method: m, operation } : null;
  }

  /** Problems of one schema against a value, with the pointer of the schema in the document. */
  validate(pointer: string, schema: JsonObject, value: unknown): string[] {
    let validator = this.validators.get(pointer);
    if (!validator) {
      validator = new Validator({ ...(closed(schema) as JsonObject), components: this.components }, "2020-12", false);
      this.validators.set(pointer, validator);
    }
    const result = validator.validate(value);
    return result.valid
      ? []
      : result.errors
          .filter((e: OutputUnit) => e.keyword !== "$ref" && e.keyword !== "properties" && e.keyword !== "items")
          .slice(0, 5)
          .map((e) => `${e.instanceLocation}: ${e.error}`);
  }

  /** The headers a documented answer must carry (`required: true`), by name. */
  private requiredHeaders(answer: JsonObject | undefined): string[] {
    const headers = Object.entries((answer?.headers ?? {}) as Record<string, JsonObject>);
    return headers
      .filter(([, header]) => (header.$ref ? this.components.headers?.[String(header.$ref).split("/").pop() ?? ""] : header)?.required === true)
      .map(([name]) => name);
  }

  /**
   * What is wrong with one answer. A documented operation: the status must be documented, the headers it
   * requires must be there (when `headers` is given), and the body must match that status's schema (or be
   * empty where the document gives none). Anything else (an unknown path, a method a path does not have) is
   * not an operation: an error must still be the API's error body.
   */
  check(
    request: { method: string; url: string },
    response: { status: number; contentType: string | null; body: string; headers?: Headers },
  ): string[] {
    const { pathname } = new URL(request.url);
    const found = this.operation(request.method, pathname);
    const where = `${request.method} ${pathname} -> ${response.status}`;
    if (!found) {
      if (response.status < 400 || request.method.toUpperCase() === "HEAD") return [];
      const parsed = ErrorBody.safeParse(parseJson(response.body));
      return parsed.success ? [] : [`${where}: not the API's error body: ${response.body.slice(0, 200)}`];
    }
    const documented = found.operation.responses?.[String(response.status)] as JsonObject | undefined;
    if (!documented) return [`${where}: status ${response.status} is not documented for ${found.operation.operationId}`];
    const answer = documented.$ref ? this.components.responses?.[String(documented.$ref).split("/").pop() ?? ""] : documented;
    const { headers } = response;
    const missing = headers
      ? this.requiredHeaders(answer)
          .filter((name) => !headers.has(name))
          .map((name) => `${where}: no ${name} header`)
      : [];
    // An answer the document gives as another media type (a bulk file's CSV or NDJSON): documented as text.
    const mediaType = response.contentType?.split(";")[0]?.trim() ?? "";
    if (mediaType !== "application/json" && answer?.content?.[mediaType]) return missing;
    const media = answer?.content?.["application/json"];
    if (!media || request.method.toUpperCase() === "HEAD") {
      return response.body === "" ? missing : [...missing, `${where}: the document gives this status no body, but one came`];
    }
    if (!response.contentType?.startsWith("application/json")) return [...missing, `${where}: content type ${response.contentType}, not JSON`];
    const pointer = `#/paths/${found.path}/${found.method}/responses/${response.status}`;
    return [
      ...missing,
      ...this.validate(pointer, media.schema, parseJson(response.body)).map((p) => `${where} (${found.operation.operationId}): ${p}`),
    ];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
