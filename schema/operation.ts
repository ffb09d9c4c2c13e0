// What an operation is: one method and path of the API, with everything the OpenAPI document, the reference
// page, the typed client and the Worker's router read from it (schema/operations.ts holds the table), and
// the target the Worker hands the matched request to. Pure: no Worker code here.
import type { z } from "zod";
import type { ApsIndex } from "../domain/aps/validation.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import type { Deprecation } from "../domain/deprecation.ts";
import type { RequiredScope } from "../domain/scopes.ts";
import type { PublicDocument } from "../lib/public-documents.ts";
import type { ErrorCode } from "./errors.ts";
import type { Resource, Tag } from "./resources.ts";

/**
 * What a matched request is for. Each kind has exactly one handler in the Worker (functions/index.ts
 * HANDLERS, checked exhaustive by tsc: test/node/dispatch-types.test.ts), so a kind added here without its handler does not compile.
 */
export type Target =
  | { kind: "list"; resource: Resource }
  | { kind: "whole"; resource: Resource }
  | { kind: "detail"; resource: Resource; key: string }
  | { kind: "requirements"; id: string }
  | { kind: "aps" }
  | { kind: "aps-compare" }
  | { kind: "aps-targets" }
  | { kind: "id-parse" }
  | { kind: "meta" }
  | { kind: "releases" }
  | { kind: "changes" }
  | { kind: "bulk"; file: string }
  | { kind: "prospectus-document"; path: string }
  | { kind: "public-document"; document: PublicDocument }
  | { kind: "redirect"; location: string; status: 301 | 302 };

/** What an example may read from the build it is generated with (build/public-documents.ts provides it). */
export interface ExampleSource {
  /** The first `count` records of a paginated list, as stored (in list order), and the list's total. */
  listItems(resource: string, count: number): { items: Record<string, unknown>[]; total: number };
  /** The whole body {data, meta} of an unpaginated list. */
  wholeList(resource: string): unknown;
  /** The body {data} of one detail record, or null. */
  detail(resource: string, key: string): unknown;
  /** The first qualification (in list order) that has requirements, with the body of its requirements. */
  requirements(): { id: string; body: unknown } | null;
  /** A university's APS document, as the calculator reads it. */
  apsDocument(universitySlug: string): ApsUniversityDocument | null;
  /** The universities and subjects the comparison knows. */
  apsIndex(): ApsIndex | null;
  /** Any JSON file of the build, by its path in dist/ (lib/layout.ts paths): the release index, /v1/meta's body. */
  file(path: string): unknown;
  /** The build's reference date, YYYY-MM-DD. */
  today: string;
}

/** One request and the 200 body the API answers to it. */
export type Example = {
  summary: string;
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  response: unknown;
};

export type Operation = {
  operationId: string;
  method: "get" | "post";
  /** OpenAPI path template: `{name}` for each path parameter. */
  path: string;
  summary: string;
  description: string;
  tag: Tag;
  /** The scope the token needs (domain/scopes.ts); null: any valid token. */
  scope: RequiredScope;
  /** One field per `{name}` in `path`. */
  pathParameters?: z.ZodObject;
  /** Query parameters. Every list takes listQuery(resource): pagination plus that list's filters. */
  query?: z.ZodObject;
  /** The JSON request body, shown under `name` in components/schemas. */
  body?: { name: string; schema: z.ZodType };
  /**
   * The 200 body, shown under `name` in components/schemas. `media`: an answer that is not JSON (a bulk file):
   * its media types, each with what it holds, instead of application/json.
   */
  response: { name: string; schema: z.ZodType; description: string; media?: Record<string, string> };
  /** Error codes beyond AUTH_ERROR_STATUSES'; the document gives each status the error body with exactly its codes. */
  errors: ErrorCode[];
  /** What the Worker does with a request this operation matched: the target its handler takes (functions/index.ts). */
  target: (parameters: Record<string, string>) => Target;
  /** The pattern (regex source) each path parameter must match before the router takes it. */
  pathPatterns?: Record<string, string>;
  /** Set when the operation is being retired (domain/deprecation.ts): its answers carry Deprecation and Sunset headers. */
  deprecated?: Deprecation;
  /** Requests and their 200 answers, from the real build; [] when the build has nothing to show (an empty table). */
  examples: (source: ExampleSource) => Example[] | Promise<Example[]>;
};
