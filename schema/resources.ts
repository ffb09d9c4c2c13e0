// THE RESOURCE REGISTRY: one definition per resource the API serves from dist/ (a list, and for most a
// detail by key). Everything that serves or documents a resource reads it from here: the operation table
// (schema/operations.ts) makes each resource's list and detail operations from its entry, the Worker's router
// is made from that table (functions/route.ts), a list's query is parsed with the entry's parameter table
// (schema/query.ts, functions/query.ts), and a served list record is finished by the entry's `served`. The
// build writes each resource's files under the same name (build/records.ts, build/emit.ts). Adding a
// resource: README "Adding a resource".
import { z } from "zod";
import { ENDPOINT_SCOPES, type RequiredScope } from "../domain/scopes.ts";
import { servedProspectus } from "../lib/prospectuses.ts";
import { MAX_SLUG_LENGTH, OPAQUE_ID, PATTERN, SLUG, UUID } from "../lib/vocabulary.ts";
import * as api from "./api.ts";
import { LIST_QUERY_PARAMETERS, type QueryParameter } from "./query.ts";

export type Tag = { name: string; description: string };

/** The words an operation shows in the document: its id, its one-line summary and its description. */
type Words = { operationId: string; summary: string; description: string };

export type ResourceDefinition = {
  /** The scope a token needs for the list and the detail (domain/scopes.ts). */
  scope: RequiredScope;
  tag: Tag;
  /** Paginated: pages cut from list chunks (with criteria, from the find index); otherwise served whole. */
  paginated: boolean;
  /** The list's query parameters (schema/query.ts); `{}`: it takes none, and anything sent is a 400. */
  query: Readonly<Record<string, QueryParameter>>;
  /** The list operation: its words, its item schema and the name of its 200 body in components/schemas. */
  list: Words & { item: z.ZodType; name: string };
  /** The detail operation, by `key` (the path parameter, and the list item's field that holds its value). */
  detail?: Words & { key: "slug" | "id"; pattern: string; parameter: z.ZodObject; record: z.ZodType; name: string };
  /** A list item as the build stores it, where it differs from the served `list.item` (prospectuses: a document path, not a URL). */
  stored?: z.ZodType;
  /** A stored list record as served; `assetBase` is asked for only when needed (prospectuses: their URL). */
  served?: (record: Record<string, unknown>, assetBase: () => string) => unknown;
  /**
   * The find index's columns of a list item, for a resource whose filters read only its list items. The
   * resources of the real model have theirs computed from the model instead (build/find-index.ts).
   */
  findColumns?: (item: Record<string, unknown>) => Record<string, unknown>;
};

export const TAGS = {
  universities: { name: "Universities", description: "The 26 public universities, with their application cycles and application fees." },
  qualifications: {
    name: "Qualifications",
    description: "Undergraduate qualifications with their minimum APS, and the NSC subject requirements of each.",
  },
  subjects: { name: "Subjects", description: "The NSC subjects; their slugs are what the APS calculator takes." },
  aps: { name: "APS calculator", description: "A university's Admission Point Score from NSC results, on that university's own scheme." },
  highSchools: { name: "High schools", description: "Secondary and combined schools that write the NSC, from the DBE masterlist." },
  bursaries: {
    name: "Bursaries",
    description:
      "Bursaries and scholarships with their application cycles, what they cover and who they are for, and the fields of study they are classified by.",
  },
  postalCodes: { name: "Postal codes", description: "Suburbs and areas with their street and box codes (SAPO)." },
  idNumbers: { name: "ID numbers", description: "South African ID numbers: date of birth, gender, citizenship and checksum." },
  prospectuses: { name: "Prospectuses", description: "Each university's prospectus documents." },
  provinces: { name: "Provinces", description: "The nine provinces." },
} satisfies Record<string, Tag>;

const slugParameter = (what: string) => z.object({ slug: z.string().max(MAX_SLUG_LENGTH).regex(SLUG).describe(`The ${what}'s slug.`) });
export const uuidParameter = (what: string) => z.object({ id: z.string().regex(UUID).describe(`The ${what}'s id (a UUID).`) });
const opaqueParameter = (what: string) =>
  z.object({ id: z.string().regex(OPAQUE_ID).describe(`The ${what}'s id (opaque; stable across rebuilds).`) });

export const RESOURCES = {
  universities: {
    scope: ENDPOINT_SCOPES.universities,
    tag: TAGS.universities,
    paginated: true,
    query: LIST_QUERY_PARAMETERS.universities,
    list: {
      operationId: "listUniversities",
      summary: "List universities",
      description: "The 26 public universities, ordered by name.",
      item: api.UniversityListItem,
      name: "UniversityPage",
    },
    detail: {
      key: "slug",
      pattern: PATTERN.slug,
      parameter: slugParameter("university"),
      operationId: "getUniversity",
      summary: "Get a university",
      description:
        "One university with its application cycles (a university may publish several closing dates, e.g. an earlier one for MBChB) and its application fees.",
      record: api.University,
      name: "UniversityResponse",
    },
  },
  qualifications: {
    scope: ENDPOINT_SCOPES.qualifications,
    tag: TAGS.qualifications,
    paginated: true,
    query: LIST_QUERY_PARAMETERS.qualifications,
    list: {
      operationId: "listQualifications",
      summary: "List qualifications",
      description:
        "Undergraduate qualifications of every university, ordered by university slug, then name. `min_aps` is on the university's own APS scale.",
      item: api.QualificationListItem,
      name: "QualificationPage",
    },
    detail: {
      key: "id",
      pattern: PATTERN.uuid,
      parameter: uuidParameter("qualification"),
      operationId: "getQualification",
      summary: "Get a qualification",
      description: "One qualification, with where its facts come from and how well they are confirmed (`confidence`).",
      record: api.Qualification,
      name: "QualificationResponse",
    },
  },
  subjects: {
    scope: ENDPOINT_SCOPES.subjects,
    tag: TAGS.subjects,
    paginated: false,
    query: LIST_QUERY_PARAMETERS.subjects,
    list: {
      operationId: "listSubjects",
      summary: "List subjects",
      description:
        "All NSC subjects, ordered by name. Their slugs are the `subject_slug` values of the APS calculator. Any valid token may read this list.",
      item: api.Subject,
      name: "SubjectList",
    },
  },
  "high-schools": {
    scope: ENDPOINT_SCOPES.highSchools,
    tag: TAGS.highSchools,
    paginated: true,
    query: LIST_QUERY_PARAMETERS["high-schools"],
    list: {
      operationId: "listHighSchools",
      summary: "List high schools",
      description: "Schools that write the NSC, ordered by province, name and EMIS number.",
      item: api.HighSchoolListItem,
      name: "HighSchoolPage",
    },
    detail: {
      key: "id",
      pattern: PATTERN.opaqueId,
      parameter: opaqueParameter("school"),
      operationId: "getHighSchool",
      summary: "Get a high school",
      description: "One school, with its district, sector, phase and coordinates.",
      record: api.HighSchool,
      name: "HighSchoolResponse",
    },
  },
  bursaries: {
    scope: ENDPOINT_SCOPES.bursaries,
    tag: TAGS.bursaries,
    paginated: true,
    query: LIST_QUERY_PARAMETERS.bursaries,
    list: {
      operationId: "listBursaries",
      summary: "List bursaries",
      description:
        "Bursaries and scholarships, ordered by name. Each list item carries what a finder filters and shows without a detail call: the latest published cycle's dates (`opening_date`, `closing_date`, `intake_year`), provider type, fields of study, study levels, whether the scheme recurs every year with its expected next cycle, and the confidence of the dates.",
      item: api.BursaryListItem,
      name: "BursaryPage",
    },
    detail: {
      key: "slug",
      pattern: PATTERN.slug,
      parameter: slugParameter("bursary"),
      operationId: "getBursary",
      summary: "Get a bursary",
      description:
        "One bursary: its provider, fields of study, what it covers and its published value, who may apply (`requires`, structured where the provider states it, and the free-text `eligibility`), where to apply, every published cycle newest first with the witness of its dates, and for an annual scheme the cycle expected next (projected, never published).",
      record: api.Bursary,
      name: "BursaryResponse",
    },
  },
  "fields-of-study": {
    scope: ENDPOINT_SCOPES.fieldsOfStudy,
    tag: TAGS.bursaries,
    paginated: false,
    query: LIST_QUERY_PARAMETERS["fields-of-study"],
    list: {
      operationId: "listFieldsOfStudy",
      summary: "List fields of study",
      description:
        "The vocabulary bursaries' `fields` are written in, ordered by name: each field's slug (the values of the bursaries' `field` filter), name, description, and how many bursaries that filter lists.",
      item: api.FieldOfStudy,
      name: "FieldOfStudyList",
    },
  },
  "postal-codes": {
    scope: ENDPOINT_SCOPES.postalCodes,
    tag: TAGS.postalCodes,
    paginated: true,
    query: LIST_QUERY_PARAMETERS["postal-codes"],
    list: {
      operationId: "listPostalCodes",
      summary: "List postal codes",
      description: "Suburbs with their street and box codes, ordered by area, then suburb.",
      item: api.PostalCodeListItem,
      name: "PostalCodePage",
    },
    detail: {
      key: "id",
      pattern: PATTERN.opaqueId,
      parameter: opaqueParameter("postal code record"),
      operationId: "getPostalCode",
      summary: "Get a postal code record",
      description: "One suburb's codes, with its province.",
      record: api.PostalCode,
      name: "PostalCodeResponse",
    },
  },
  prospectuses: {
    scope: ENDPOINT_SCOPES.prospectuses,
    tag: TAGS.prospectuses,
    paginated: true,
    query: LIST_QUERY_PARAMETERS.prospectuses,
    list: {
      operationId: "listProspectuses",
      summary: "List prospectuses",
      description:
        "Prospectus documents, ordered by university, newest year first. A university that publishes one per faculty has one record per part, each with a `title`. `url` opens the document without a token.",
      item: api.Prospectus,
      name: "ProspectusPage",
    },
    stored: api.StoredProspectus,
    served: (record, assetBase) => servedProspectus(record as { document_path: string } & Record<string, unknown>, assetBase()),
  },
  provinces: {
    scope: ENDPOINT_SCOPES.provinces,
    tag: TAGS.provinces,
    paginated: false,
    query: LIST_QUERY_PARAMETERS.provinces,
    list: {
      operationId: "listProvinces",
      summary: "List provinces",
      description: "The nine provinces, ordered by name.",
      item: api.Province,
      name: "ProvinceList",
    },
  },
} satisfies Record<string, ResourceDefinition>;

/** The name of a resource: its path under /v1/data/, its folder in dist/, its entry in the manifest. */
export type ResourceName = keyof typeof RESOURCES;

type Registry = typeof RESOURCES;

/** A resource's list item as the build stores it (its `stored` schema, else its `list.item`). */
export type StoredItemOf<N extends ResourceName> = z.infer<
  Registry[N] extends { stored: infer S extends z.ZodType } ? S : Registry[N]["list"]["item"]
>;

/** A resource's detail record (never for a resource without one). */
export type DetailRecordOf<N extends ResourceName> = Registry[N] extends { detail: { record: infer R extends z.ZodType } } ? z.infer<R> : never;

/** A resource and its name, as a route's target carries it. */
export type Resource = { name: ResourceName; definition: ResourceDefinition };

/** The registry as entries, in its order (which is the order of resource operations the table does not place). */
export function resourceEntries(registry: Readonly<Record<string, ResourceDefinition>> = RESOURCES): Resource[] {
  return Object.entries(registry).map(([name, definition]) => ({ name: name as ResourceName, definition }));
}

/** The registry's entry of `name`, as a target carries it. */
export function resourceNamed(name: ResourceName): Resource {
  return { name, definition: RESOURCES[name] };
}
