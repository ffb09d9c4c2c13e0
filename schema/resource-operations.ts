// The operations of a registered resource (schema/resources.ts): its list, paginated or whole, and its
// detail by key, each with the target the Worker serves it with. schema/operations.ts places them in the table.
import { z } from "zod";
import { DEFAULT_PAGE, DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../lib/pagination.ts";
import { EXAMPLE_ORIGIN } from "../lib/public-documents.ts";
import * as api from "./api.ts";
import type { ErrorCode } from "./errors.ts";
import type { Operation } from "./operation.ts";
import type { QueryParameter } from "./query.ts";
import type { Resource } from "./resources.ts";

/** Pagination, the same on every paginated list (lib/pagination.ts holds the rules the Worker applies). */
const PAGINATION_QUERY = z.object({
  page: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_PAGE)
    .describe("The page, from 1, written plainly (`01` is refused). A page past the end answers 200 with no records."),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE).describe(`Records per page, 1 to ${MAX_PER_PAGE}.`),
});

/** The pagination query, for operations outside the registry that page (schema/sync-operations.ts). */
export const paginationQuery = (): z.ZodObject => PAGINATION_QUERY;

const LIST_QUERY_ERRORS: ErrorCode[] = ["invalid_pagination", "invalid_parameter", "unknown_parameter"];

/** A paginated list's query: pagination plus the list's own parameters (filters, search...) from its table. */
function listQuery(parameters: Readonly<Record<string, QueryParameter>>): z.ZodObject {
  const filters = Object.entries(parameters)
    .filter(([name]) => name !== "page" && name !== "per_page")
    .map(([name, parameter]) => [name, parameter.schema.optional().describe(parameter.description)]);
  return PAGINATION_QUERY.extend(Object.fromEntries(filters));
}

/** Records on an example list page: enough to show the shape, few enough to read. */
const EXAMPLE_PER_PAGE = 2;

/** Prospectus URLs in examples use the production asset base (wrangler.jsonc env.live ASSET_URL). */
export const EXAMPLE_ASSET_URL = `${EXAMPLE_ORIGIN}/assets`;

function paginatedList(resource: Resource): Operation {
  const { name: resourceName, definition } = resource;
  const { item, name, ...words } = definition.list;
  const served = definition.served ?? ((r) => r);
  return {
    ...words,
    method: "get",
    path: `/v1/data/${resourceName}`,
    tag: definition.tag,
    scope: definition.scope,
    query: listQuery(definition.query),
    response: { name, schema: api.pageOf(item), description: "A page of the list, in the list's order, with the total." },
    errors: LIST_QUERY_ERRORS,
    target: () => ({ kind: "list", resource }),
    examples: (source) => {
      const { items, total } = source.listItems(resourceName, EXAMPLE_PER_PAGE);
      const response = { data: items.map((r) => served(r, () => EXAMPLE_ASSET_URL)), meta: { total, page: 1, per_page: EXAMPLE_PER_PAGE } };
      return [{ summary: `The first ${EXAMPLE_PER_PAGE} records`, query: { per_page: EXAMPLE_PER_PAGE }, response }];
    },
  };
}

function wholeList(resource: Resource): Operation {
  const { name: resourceName, definition } = resource;
  const { item, name, ...words } = definition.list;
  return {
    ...words,
    method: "get",
    path: `/v1/data/${resourceName}`,
    tag: definition.tag,
    scope: definition.scope,
    response: { name, schema: api.listOf(item), description: "The whole list, with its total." },
    // It takes no parameters: any sent is a typo the client should hear about.
    errors: ["unknown_parameter"],
    target: () => ({ kind: "whole", resource }),
    examples: (source) => [{ summary: "The whole list", response: source.wholeList(resourceName) }],
  };
}

function detail(resource: Resource, spec: NonNullable<Resource["definition"]["detail"]>): Operation {
  const { name: resourceName, definition } = resource;
  const { key, pattern, parameter, record, name, ...words } = spec;
  return {
    ...words,
    method: "get",
    path: `/v1/data/${resourceName}/{${key}}`,
    tag: definition.tag,
    scope: definition.scope,
    pathParameters: parameter,
    pathPatterns: { [key]: pattern },
    response: { name, schema: api.recordOf(record), description: "The record." },
    errors: ["not_found"],
    target: (parameters) => ({ kind: "detail", resource, key: parameters[key] ?? "" }),
    examples: (source) => {
      const first = source.listItems(resourceName, 1).items[0];
      const value = first?.[key];
      if (typeof value !== "string") return [];
      return [{ summary: "The first record of the list", path: { [key]: value }, response: source.detail(resourceName, value) }];
    },
  };
}

/** A resource's operations: its list (paginated or whole), then its detail if it has one. */
export function resourceOperations(resource: Resource): Operation[] {
  const list = resource.definition.paginated ? paginatedList(resource) : wholeList(resource);
  return resource.definition.detail ? [list, detail(resource, resource.definition.detail)] : [list];
}
