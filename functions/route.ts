// Routing: the request's method and path to one of SPEC.md's endpoints. Path parameters must match a
// strict pattern before they are used to build a file path, so nothing a client sends (`..`, encoded
// slashes, internal file names) can reach a file that is not a public document.
import type { Deprecation } from "../domain/deprecation.ts";
import type { RequiredScope } from "../domain/scopes.ts";
import { DOCS_PATH, PUBLIC_DOCUMENTS } from "../lib/public-documents.ts";
import { PATTERN } from "../lib/vocabulary.ts";
import { OPERATIONS, type Operation, type Target } from "../schema/operations.ts";

export type { Target };

/** "public": no token needed (documents a browser opens from a link, which cannot carry a bearer token). */
type Access = RequiredScope | "public";

/** `deprecation`: the operation is being retired; its answers carry the headers of domain/deprecation.ts. */
export type Route = { target: Target; access: Access; deprecation?: Deprecation };

export type RouteMatch = { kind: "route"; route: Route } | { kind: "not-found" } | { kind: "method-not-allowed"; allow: string };

const { slug: SLUG } = PATTERN;

const READ = ["GET", "HEAD"] as const;

type Definition = {
  pattern: RegExp;
  methods: readonly string[];
  access: Access;
  deprecation?: Deprecation;
  target: (m: RegExpExecArray) => Target;
};

/**
 * An operation's route: its path template with each `{name}` replaced by the parameter's pattern, its
 * method (a GET answers HEAD too), its scope and its target. An operation whose path has a parameter
 * without a pattern cannot be routed, and fails here, at start-up, not on a request.
 */
function routeOf(operation: Operation): Definition {
  const names: string[] = [];
  const source = operation.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const pattern = operation.pathPatterns?.[name];
    if (pattern === undefined) throw new Error(`${operation.operationId}: the path parameter {${name}} has no pattern`);
    names.push(name);
    return `(${pattern})`;
  });
  return {
    pattern: new RegExp(`^${source}$`),
    methods: operation.method === "get" ? READ : ["POST"],
    access: operation.scope,
    ...(operation.deprecated ? { deprecation: operation.deprecated } : {}),
    target: (m) => operation.target(Object.fromEntries(names.map((name, i) => [name, m[i + 1] ?? ""]))),
  };
}

export const ROUTES: Definition[] = [
  ...OPERATIONS.map(routeOf),
  {
    pattern: new RegExp(`^/assets(/prospectuses/${SLUG}-\\d{4}(?:-${SLUG})?\\.pdf)$`),
    methods: READ,
    access: "public",
    target: (m) => ({ kind: "prospectus-document", path: m[1] ?? "" }),
  },
  ...publicDocumentRoutes(),
];

/**
 * The public documents (lib/public-documents.ts), each at its exact path; `/`, which leads to the reference
 * page, and `/docs/`, the page's address with a trailing slash, moved for good to `/docs`.
 */
function publicDocumentRoutes(): Definition[] {
  const exact = (path: string) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  return [
    ...PUBLIC_DOCUMENTS.map(
      (document): Definition => ({
        pattern: exact(document.path),
        methods: READ,
        access: "public",
        target: () => ({ kind: "public-document", document }),
      }),
    ),
    { pattern: /^\/$/, methods: READ, access: "public", target: () => ({ kind: "redirect", location: DOCS_PATH, status: 302 }) },
    { pattern: exact(`${DOCS_PATH}/`), methods: READ, access: "public", target: () => ({ kind: "redirect", location: DOCS_PATH, status: 301 }) },
  ];
}

export function matchRoute(method: string, pathname: string): RouteMatch {
  // Patterns are anchored and never overlap for one method, so the first match with the method wins.
  const matches = ROUTES.flatMap((definition) => {
    const m = definition.pattern.exec(pathname);
    return m ? [{ definition, m }] : [];
  });
  if (matches.length === 0) return { kind: "not-found" };
  const found = matches.find(({ definition }) => definition.methods.includes(method));
  if (!found) {
    const allow = [...new Set(matches.flatMap(({ definition }) => definition.methods))].join(", ");
    return { kind: "method-not-allowed", allow: `${allow}, OPTIONS` };
  }
  const { definition, m } = found;
  return {
    kind: "route",
    route: { target: definition.target(m), access: definition.access, ...(definition.deprecation ? { deprecation: definition.deprecation } : {}) },
  };
}
