// The one scope table: which scope each endpoint of SPEC.md section 5 needs. The Worker's router and the
// token CLI both read it, so a scope cannot be misspelt in one place only.

export const SCOPES = [
  "universities:read",
  "qualifications:read",
  "qualifications:requirements",
  "aps_calculator:use",
  "high_schools:read",
  "bursaries:read",
  "postal_codes:read",
  "id_parser:use",
  "prospectuses:read",
  "provinces:read",
] as const;

export type Scope = (typeof SCOPES)[number];

/** `null`: any valid token will do (the subjects list). */
export type RequiredScope = Scope | null;

export const ENDPOINT_SCOPES = {
  universities: "universities:read",
  qualifications: "qualifications:read",
  qualificationRequirements: "qualifications:requirements",
  subjects: null,
  apsCalculator: "aps_calculator:use",
  highSchools: "high_schools:read",
  bursaries: "bursaries:read",
  /** Not in SPEC.md: the bursaries' vocabulary of fields of study, read with the bursaries' scope. */
  fieldsOfStudy: "bursaries:read",
  postalCodes: "postal_codes:read",
  idParser: "id_parser:use",
  prospectuses: "prospectuses:read",
  provinces: "provinces:read",
} as const satisfies Record<string, RequiredScope>;

/**
 * What a publishable token (a browser's, visible in page source) may carry: every `*:read` scope and the two
 * computations. Not qualifications:requirements, the curated per-subject requirements (a client fetches them
 * with a secret token, from its server), nor any scope added later unless it is named here or ends in `:read`.
 */
export const PUBLISHABLE_SCOPES: readonly Scope[] = SCOPES.filter((s) => s.endsWith(":read") || s === "aps_calculator:use" || s === "id_parser:use");

export function isPublishableScope(value: string): boolean {
  return (PUBLISHABLE_SCOPES as readonly string[]).includes(value);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** RFC 9068: the `scope` claim is a space-separated list. */
export function parseScopeClaim(claim: unknown): Set<string> {
  return new Set(typeof claim === "string" ? claim.split(" ").filter((s) => s !== "") : []);
}

export function grants(granted: Set<string>, required: RequiredScope): boolean {
  return required === null || granted.has(required);
}
