// Routing: the request's method and path to one of SPEC.md's endpoints. Path parameters must match a
// strict pattern before they are used to build a file path, so nothing a client sends (`..`, encoded
// slashes, internal file names) can reach a file that is not a public document.
import { ENDPOINT_SCOPES, type RequiredScope } from "../domain/scopes.ts";
import { DOCS_PATH, PUBLIC_DOCUMENTS, type PublicDocument } from "../lib/public-documents.ts";
import { PATTERN } from "../lib/vocabulary.ts";

export type Target =
  | { kind: "list"; resource: string }
  | { kind: "whole"; resource: string }
  | { kind: "detail"; resource: string; key: string }
  | { kind: "requirements"; id: string }
  | { kind: "aps" }
  | { kind: "aps-compare" }
  | { kind: "aps-targets" }
  | { kind: "id-parse" }
  | { kind: "prospectus-document"; path: string }
  | { kind: "public-document"; document: PublicDocument }
  | { kind: "redirect"; location: string; status: 301 | 302 };

/** "public": no token needed (documents a browser opens from a link, which cannot carry a bearer token). */
type Access = RequiredScope | "public";

export type Route = { target: Target; access: Access };

export type RouteMatch = { kind: "route"; route: Route } | { kind: "not-found" } | { kind: "method-not-allowed"; allow: string };

const { slug: SLUG, uuid: UUID, opaqueId: OPAQUE } = PATTERN;

const READ = ["GET", "HEAD"] as const;
const WRITE = ["POST"] as const;

type Definition = {
  pattern: RegExp;
  methods: readonly string[];
  access: Access;
  target: (m: RegExpExecArray) => Target;
};

function collection(resource: string, key: string, access: RequiredScope): Definition[] {
  return [
    { pattern: new RegExp(`^/v1/data/${resource}$`), methods: READ, access, target: () => ({ kind: "list", resource }) },
    {
      pattern: new RegExp(`^/v1/data/${resource}/(${key})$`),
      methods: READ,
      access,
      target: (m) => ({ kind: "detail", resource, key: m[1] ?? "" }),
    },
  ];
}

export const ROUTES: Definition[] = [
  ...collection("universities", SLUG, ENDPOINT_SCOPES.universities),
  ...collection("qualifications", UUID, ENDPOINT_SCOPES.qualifications),
  {
    pattern: new RegExp(`^/v1/data/qualifications/(${UUID})/requirements$`),
    methods: READ,
    access: ENDPOINT_SCOPES.qualificationRequirements,
    target: (m) => ({ kind: "requirements", id: m[1] ?? "" }),
  },
  { pattern: /^\/v1\/data\/subjects$/, methods: READ, access: ENDPOINT_SCOPES.subjects, target: () => ({ kind: "whole", resource: "subjects" }) },
  { pattern: /^\/v1\/data\/aps-calculator$/, methods: WRITE, access: ENDPOINT_SCOPES.apsCalculator, target: () => ({ kind: "aps" }) },
  {
    pattern: /^\/v1\/data\/aps-calculator\/compare$/,
    methods: WRITE,
    access: ENDPOINT_SCOPES.apsCalculator,
    target: () => ({ kind: "aps-compare" }),
  },
  {
    pattern: /^\/v1\/data\/aps-calculator\/targets$/,
    methods: WRITE,
    access: ENDPOINT_SCOPES.apsCalculator,
    target: () => ({ kind: "aps-targets" }),
  },
  ...collection("high-schools", OPAQUE, ENDPOINT_SCOPES.highSchools),
  ...collection("bursaries", SLUG, ENDPOINT_SCOPES.bursaries),
  {
    pattern: /^\/v1\/data\/fields-of-study$/,
    methods: READ,
    access: ENDPOINT_SCOPES.fieldsOfStudy,
    target: () => ({ kind: "whole", resource: "fields-of-study" }),
  },
  ...collection("postal-codes", OPAQUE, ENDPOINT_SCOPES.postalCodes),
  { pattern: /^\/v1\/id\/parse$/, methods: WRITE, access: ENDPOINT_SCOPES.idParser, target: () => ({ kind: "id-parse" }) },
  {
    pattern: /^\/v1\/data\/prospectuses$/,
    methods: READ,
    access: ENDPOINT_SCOPES.prospectuses,
    target: () => ({ kind: "list", resource: "prospectuses" }),
  },
  {
    pattern: /^\/v1\/data\/provinces$/,
    methods: READ,
    access: ENDPOINT_SCOPES.provinces,
    target: () => ({ kind: "whole", resource: "provinces" }),
  },
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
  return { kind: "route", route: { target: found.definition.target(found.m), access: found.definition.access } };
}
