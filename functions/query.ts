// Query parameters of the list endpoints, read by the one declarative table in schema/query.ts. In this
// order, each step answering 400 with a `details` entry per parameter:
//   1. a parameter the endpoint does not take          unknown_parameter (listing the ones it takes)
//   2. page / per_page given twice or malformed         invalid_pagination (as before filters existed)
//   3. any other value given twice, of the wrong form,
//      or without the parameter it needs               invalid_parameter
// What comes out is the page and the criteria lib/find.ts evaluates; none at all means the plain list.
import type { Criterion } from "../lib/find.ts";
import { parsePageRequest, type PageRequest } from "../lib/pagination.ts";
import { DEFAULT_RADIUS_KM } from "../schema/query.ts";
import type { ErrorDetail } from "../schema/errors.ts";
import type { QueryParameter } from "../schema/query.ts";
import type { Resource } from "../schema/resources.ts";
import { ApiError } from "./errors.ts";

export type ListQuery = { page: PageRequest; criteria: Criterion[]; radiusKm: number };

const PAGINATION_MESSAGE = "page and per_page must be positive integers, per_page at most 100";

/** The list query of `resource`, read with the parameter table of its registry entry. */
export function parseListQuery(resource: Resource, params: URLSearchParams): ListQuery {
  return parseQuery(resource.definition.query, `/v1/data/${resource.name}`, params);
}

/** A query read with a parameter table (schema/query.ts); `endpoint` names the endpoint in messages. */
export function parseQuery(table: Readonly<Record<string, QueryParameter>>, endpoint: string, params: URLSearchParams): ListQuery {
  const accepted = Object.keys(table);
  const names = [...params.keys()];

  const unknown = [...new Set(names.filter((name) => !Object.hasOwn(table, name)))];
  if (unknown.length > 0) {
    const takes = accepted.length > 0 ? `takes only: ${accepted.join(", ")}` : "takes no query parameters";
    throw new ApiError(
      "unknown_parameter",
      `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `'${n}'`).join(", ")}: ${endpoint} ${takes}`,
      {
        details: unknown.map((name) => ({ path: name, message: `is not a parameter of this endpoint, which ${takes}` })),
      },
    );
  }

  const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  const once = (name: string) => ({ path: name, message: "may be given only once" });
  const isPaging = (name: string) => table[name]?.match.kind === "page";
  const pagingTwice = repeated.filter(isPaging);
  if (pagingTwice.length > 0) throw new ApiError("invalid_pagination", PAGINATION_MESSAGE, { details: pagingTwice.map(once) });
  const page = parsePageRequest(params.get("page"), params.get("per_page"));
  if (Array.isArray(page)) {
    throw new ApiError("invalid_pagination", PAGINATION_MESSAGE, { details: page });
  }

  const problems: ErrorDetail[] = repeated.filter((name) => !isPaging(name)).map(once);
  const criteria: Criterion[] = [];
  let radiusKm = DEFAULT_RADIUS_KM;
  for (const [name, definition] of Object.entries(table)) {
    const raw = params.get(name);
    if (raw === null || definition.match.kind === "page" || repeated.includes(name)) continue;
    const parsed = definition.schema.safeParse(raw);
    if (!parsed.success) {
      problems.push({ path: name, message: parsed.error.issues[0]?.message ?? "is not valid" });
      continue;
    }
    if (definition.requires && !params.has(definition.requires)) {
      problems.push({ path: name, message: `may only be given with ${definition.requires}` });
      continue;
    }
    if (definition.match.kind === "radius") radiusKm = parsed.data as number;
    else criteria.push({ name, match: definition.match, value: parsed.data });
  }
  if (problems.length > 0) {
    throw new ApiError(
      "invalid_parameter",
      `Invalid query parameter${problems.length > 1 ? "s" : ""}: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`,
      {
        details: problems,
      },
    );
  }
  return { page, criteria, radiusKm };
}
