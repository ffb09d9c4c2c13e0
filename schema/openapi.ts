// The OpenAPI 3.1 document, generated from the operation table (schema/operations.ts) and the zod schemas
// at every build, never written by hand. zod 4 emits JSON Schema 2020-12, on which OpenAPI 3.1's default
// schema dialect is built, so record schemas go into components/schemas as zod writes them, with three clean-ups: no
// `$schema`/`$id` per schema, no integer bounds that only say "a safe integer", and no
// `additionalProperties: false` (records may gain fields; README: Additive fields).
// Pure: the build calls it with examples read from the emitted files; the client's type generator calls it
// without examples, so the client's types depend on the schemas only.
import { z } from "zod";
import { NOTICE_DAYS } from "../domain/deprecation.ts";
import { RETENTION_DAYS } from "./releases.ts";
import { ENDPOINT_SCOPES, isPublishableScope } from "../domain/scopes.ts";
import { DOCS_PATH, EXAMPLE_ORIGIN, OPENAPI_PATH } from "../lib/public-documents.ts";
import { errorBodyWith } from "./api.ts";
import { codesWithStatus, ERROR_STATUS, type ErrorCode } from "./errors.ts";
import { AUTH_ERROR_CODES, AUTH_ERROR_STATUSES, NAMED_SCHEMAS, OPERATIONS, type Example, type ExampleSource, type Operation } from "./operations.ts";

type Json = Record<string, unknown>;

const OPENAPI_VERSION = "3.1.1";
const SECURITY_SCHEME = "bearer";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "No valid token",
  403: "Not allowed",
  404: "Not found",
  413: "Body too large",
  415: "Not JSON",
  422: "Invalid request body",
  429: "Too many requests",
  500: "Server error",
};

/** Every counted answer carries these (functions/rate-limit.ts): all but a 500, which can come before the count. */
const RATE_LIMIT_HEADERS: Json = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

const ERROR_HEADERS: Record<number, Json> = {
  401: { "WWW-Authenticate": { $ref: "#/components/headers/WWWAuthenticate" } },
  403: { "WWW-Authenticate": { $ref: "#/components/headers/WWWAuthenticate" } },
  429: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
};

function errorHeaders(status: number): Json | undefined {
  if (status >= 500) return ERROR_HEADERS[status];
  return { ...ERROR_HEADERS[status], ...RATE_LIMIT_HEADERS };
}

const HEADERS: Json = {
  ETag: {
    description: "A strong validator of this body: send it back in `If-None-Match` and an unchanged answer is a `304` with no body.",
    schema: { type: "string" },
  },
  CacheControl: {
    description: "How long the answer may be reused (`private, max-age=300` by default; errors and POST answers: `no-store`).",
    schema: { type: "string" },
  },
  XDataVersion: { description: "The data build that served the answer (changes when any published data changes).", schema: { type: "string" } },
  WWWAuthenticate: {
    description:
      'RFC 6750: `Bearer realm="sa-edu-data-api", error="invalid_token", error_description="…"`; without an Authorization header only `Bearer realm="sa-edu-data-api"`; on 403 `error="insufficient_scope", scope="<needed>"`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'The rate limits this request was counted in (IETF draft-ietf-httpapi-ratelimit-headers-10), one item per policy: `"<policy>";r=<requests left in this period>;t=<seconds until the period ends>`, e.g. `"visitor";r=117;t=42, "publishable";r=5890;t=42`. `r` is counted by the server instance that answered: a guide, not a promise.',
    required: true,
    schema: { type: "string" },
  },
  RateLimitPolicy: {
    description:
      'The policies that counted this request, one item each: `"<policy>";q=<requests per period>;w=<period in seconds>`, e.g. `"visitor";q=120;w=60, "publishable";q=6000;w=60`. Policies: `secret` (per token); for a publishable token `visitor` (per token and client address: each visitor of your site has a quota of its own) and `publishable` (the token\'s ceiling, all visitors together); `anonymous` (per client address, for requests without a valid token).',
    required: true,
    schema: { type: "string" },
  },
  RetryAfter: {
    description: "Seconds until the period ends and requests are accepted again.",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
};

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const kebab = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** `Error401` for a status with all of its codes; `Error422InvalidApsRequest` for some of them. */
function errorSchemaName(status: number, codes: ErrorCode[]): string {
  return codes.length === codesWithStatus(status).length ? `Error${status}` : `Error${status}${codes.map(pascal).join("")}`;
}

/** The error codes an operation can answer, by status. */
function errorCodesByStatus(operation: Operation): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  const add = (code: ErrorCode) => {
    const status = ERROR_STATUS[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  };
  for (const status of AUTH_ERROR_STATUSES) codesWithStatus(status).forEach(add);
  AUTH_ERROR_CODES.forEach(add);
  operation.errors.forEach(add);
  return new Map([...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]));
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod's JSON Schema, cleaned for a component or parameter (see the top of this file). */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "additionalProperties" && child === false) continue;
    if ((key === "minimum" && child === -SAFE) || (key === "maximum" && child === SAFE)) continue;
    out[key] = clean(child);
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** components/schemas: the named records, and every operation's bodies and error bodies under their names. */
class Components {
  readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<string, z.ZodType>();

  constructor() {
    for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) this.add(name, schema);
  }

  add(name: string, schema: z.ZodType): Json {
    const known = this.names.get(name);
    if (known && known !== schema) throw new Error(`two different schemas are named ${name} in the OpenAPI document`);
    if (!known) {
      this.names.set(name, schema);
      this.registry.add(schema, { id: name });
    }
    return ref(name);
  }

  error(status: number, codes: ErrorCode[]): Json {
    const name = errorSchemaName(status, codes);
    const known = this.names.get(name);
    return known ? ref(name) : this.add(name, errorBodyWith(status, codes as [ErrorCode, ...ErrorCode[]]));
  }

  schemas(): Json {
    const { schemas } = z.toJSONSchema(this.registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: "throw" });
    return Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((name) => [name, clean(schemas[name])]),
    );
  }
}

/** One OpenAPI parameter per field of a zod object; the field's description becomes the parameter's. */
function parameters(where: "path" | "query", shape: z.ZodObject | undefined, example: Record<string, unknown> | undefined): Json[] {
  if (!shape) return [];
  const schema = clean(z.toJSONSchema(shape, { io: "input", unrepresentable: "throw" })) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || (schema.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(example?.[name] !== undefined ? { example: example[name] } : {}),
    };
  });
}

function requestLine(operation: Operation, example: Example): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => example.path?.[name] ?? `{${name}}`);
  const query = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  return `${operation.method.toUpperCase()} ${path}${query ? `?${query}` : ""}${example.body !== undefined ? ` with the request body of the same name` : ""}`;
}

function scopeText(operation: Operation): string {
  return operation.scope === null ? "**Token:** any valid token (no particular scope)." : `**Scope:** \`${operation.scope}\`.`;
}

async function operationObject(operation: Operation, components: Components, source: ExampleSource | undefined): Promise<Json> {
  const examples = source ? await operation.examples(source) : [];
  const first = examples[0];
  const named = (value: (e: Example) => Json) => Object.fromEntries(examples.map((e) => [kebab(e.summary), { summary: e.summary, ...value(e) }]));
  const withExamples = (media: Json, value: (e: Example) => Json) => (examples.length > 0 ? { ...media, examples: named(value) } : media);

  const responses: Json = {
    200: {
      description: operation.response.description,
      headers: {
        ...(operation.method === "get"
          ? {
              ETag: { $ref: "#/components/headers/ETag" },
              "Cache-Control": { $ref: "#/components/headers/CacheControl" },
              "X-Data-Version": { $ref: "#/components/headers/XDataVersion" },
            }
          : { "Cache-Control": { $ref: "#/components/headers/CacheControl" } }),
        ...RATE_LIMIT_HEADERS,
      },
      content: operation.response.media
        ? Object.fromEntries(
            Object.entries(operation.response.media).map(([media, holds]) => [media, { schema: { type: "string", description: holds } }]),
          )
        : {
            "application/json": withExamples({ schema: components.add(operation.response.name, operation.response.schema) }, (e) => ({
              description: `The answer to ${requestLine(operation, e)}.`,
              value: e.response,
            })),
          },
    },
  };
  if (operation.method === "get") responses[304] = { $ref: "#/components/responses/NotModified" };
  for (const [status, codes] of errorCodesByStatus(operation)) {
    const headers = errorHeaders(status);
    responses[status] = {
      description: `${STATUS_TEXT[status] ?? "Error"}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      ...(headers ? { headers } : {}),
      content: { "application/json": { schema: components.error(status, codes) } },
    };
  }

  const parameterList = [...parameters("path", operation.pathParameters, first?.path), ...parameters("query", operation.query, first?.query)];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `${operation.description}\n\n${scopeText(operation)}${deprecationText(operation)}`,
    ...(operation.deprecated ? { deprecated: true } : {}),
    tags: [operation.tag.name],
    security: [{ [SECURITY_SCHEME]: operation.scope === null ? [] : [operation.scope] }],
    "x-required-scope": operation.scope,
    ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": withExamples({ schema: components.add(operation.body.name, operation.body.schema) }, (e) => ({ value: e.body })),
            },
          },
        }
      : {}),
    responses,
  };
}

function scopesText(operations: Operation[]): string {
  const scopes = [...new Set(Object.values(ENDPOINT_SCOPES).filter((s): s is NonNullable<typeof s> => s !== null))];
  const lines = scopes.map((scope) => {
    const ops = operations.filter((o) => o.scope === scope).map((o) => o.summary);
    return `- \`${scope}\`${isPublishableScope(scope) ? " (publishable)" : ""}: ${ops.join("; ")}`;
  });
  return lines.join("\n");
}

function deprecationText({ deprecated }: Operation): string {
  if (!deprecated) return "";
  const instead = deprecated.successor ? ` Use \`${deprecated.successor}\` instead.` : "";
  return `\n\n**Deprecated** since ${deprecated.since}; it stops answering on ${deprecated.sunset} (the \`Deprecation\` and \`Sunset\` headers say the same).${instead}`;
}

function description(operations: Operation[]): string {
  return `Reference data and computations for South African higher-education applications: the public universities with their application cycles and fees, qualifications with their subject requirements, NSC subjects, high schools, bursaries, postal codes, prospectuses and provinces; an Admission Point Score (APS) calculator that scores on each university's own scheme; and a South African ID number parser.

## Getting a token

Every operation needs an \`Authorization: Bearer <token>\` header. Tokens are signed JWTs issued by the operators of this API: ask them for one that carries the scopes you need (each operation below names its scope). Each token belongs to one environment (\`test\` or \`live\`) and has an expiry date.

There are two kinds. A **secret token** is for your servers: keep it out of web pages. A **publishable token** is for calling the API from web pages (a school picker or an APS widget on your site): it names the sites (origins) whose pages may use it, and is accepted only on requests whose \`Origin\` header is one of them (anything else is \`403 origin_not_allowed\`); it carries only the scopes marked *publishable* below. Answers to it name your origin in \`Access-Control-Allow-Origin\`.

With a token in \`$TOKEN\`, from a shell: \`curl -H "Authorization: Bearer $TOKEN" ${EXAMPLE_ORIGIN}/v1/data/provinces\`.

Running the API yourself (see the repository's README): \`npm start\` serves it on your machine (port 8787 unless \`PORT\` says otherwise; this page then shows that address in its examples), and \`npm run token -- --scopes universities:read,qualifications:read\` prints a local test token.

On this page: choose **Authorize**, paste the token, then **Try it out** on any operation.

## Responses

- Every body is JSON but the bulk files' (CSV and NDJSON): \`{"data": …}\`, and lists add \`"meta"\`: \`{total, page, per_page}\` on paginated lists (\`page\` from 1, \`per_page\` 1 to 100, default 20), \`{total}\` on whole lists.
- Errors: \`{"error": {"status", "code", "message", "details"?}}\`. Branch on \`code\`; \`details\` lists field problems as \`{path, message}\`. Without a valid token every path answers 401, known or not (400 \`invalid_request\` when the \`Authorization\` header is not \`Bearer <token>\`; the scheme's case does not matter).
- Empty values are \`null\`, never left out. Records may gain fields in later versions (never lose or rename them): ignore fields you do not know.
- GET answers carry a strong \`ETag\` (send it back in \`If-None-Match\` for a \`304\`), \`Cache-Control\` and \`X-Data-Version\`.

## Rate limits

Requests are counted per token, and per client address for requests without a valid token. Every answer says how it was counted, in the IETF RateLimit fields: \`RateLimit-Policy: "<policy>";q=<requests per period>;w=<seconds>\` and \`RateLimit: "<policy>";r=<requests left>;t=<seconds until the period ends>\`. Over the limit the answer is \`429 rate_limited\` with \`Retry-After\` (seconds): wait that long, then go on.

## Keeping a copy

A partner who keeps its own copy downloads every record of a resource once (\`GET /v1/bulk/<resource>.ndjson\` or \`.csv\`, with the data dictionary at \`/v1/bulk/dictionary.json\`), notes the release it holds (\`GET /v1/meta\`, or the file name), and then asks each night what changed since (\`GET /v1/changes?since=<release>\`): one item per record added, removed or changed, with the fields that changed. Releases are kept ${RETENTION_DAYS} days; an older \`since\` answers \`410 release_gone\`, and the copy is downloaded again. The data is licensed under CC BY 4.0 (see \`info.license\`).

## Deprecation

Nothing is deprecated today. An operation that is to be retired keeps answering for at least ${NOTICE_DAYS} days after it is marked: it is flagged \`deprecated\` in this document, and every answer carries \`Deprecation\` (RFC 9745, the date it was marked, as \`@<unix time>\`), \`Sunset\` (RFC 8594, the date it stops) and \`Link\` headers to its successor (\`rel="successor-version"\`) and to this page (\`rel="deprecation"\`). A field is retired the same way: marked \`deprecated\` in the schema, named in the changelog, removed no sooner than ${NOTICE_DAYS} days later and only in a new version of the API.

## Scopes

${scopesText(operations)}

This document is served without a token at \`${OPENAPI_PATH}\` (OpenAPI 3.1, generated from the API's schemas at every build), and shown for people at \`${DOCS_PATH}\`.`;
}

/** The whole document. Without `examples`, it holds no data: what the client's types are generated from. */
export async function openApiDocument(options: { examples?: ExampleSource; operations?: Operation[] } = {}): Promise<Json> {
  const operations = options.operations ?? OPERATIONS;
  for (const key of ["operationId", "summary"] as const) {
    const seen = new Set<string>();
    for (const o of operations) {
      if (seen.has(o[key])) throw new Error(`two operations have the ${key} ${JSON.stringify(o[key])}`);
      seen.add(o[key]);
    }
  }
  const components = new Components();
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: await operationObject(operation, components, options.examples) };
  }
  const tags = [...new Map(operations.map((o) => [o.tag.name, o.tag])).values()];
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "South African higher-education data API",
      version: "v1",
      description: description(operations),
      // The data the API serves; the code is MIT (LICENSE). docs/data-licence.md says what each source asks.
      license: { name: "CC BY 4.0 (the compiled data; the code is MIT)", url: "https://creativecommons.org/licenses/by/4.0/" },
    },
    servers: [{ url: "/", description: "The server this document was served by" }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags,
    paths,
    components: {
      schemas: components.schemas(),
      responses: {
        NotModified: {
          description: "Not modified: `If-None-Match` named this answer's ETag. No body.",
          headers: {
            ETag: { $ref: "#/components/headers/ETag" },
            "X-Data-Version": { $ref: "#/components/headers/XDataVersion" },
            ...RATE_LIMIT_HEADERS,
          },
        },
      },
      headers: HEADERS,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "A JWT issued by the API's operators (see Getting a token), secret or publishable. Its `scope` claim lists the scopes it grants; each operation names the one it needs. A publishable token is accepted only from the origins it names.",
        },
      },
    },
  };
}
