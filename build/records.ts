// The linked model turned into API records, resource by resource: what each list page shows, what each
// detail document holds, and each record's schema, which the emit stage checks every record against.
import type { z } from "zod";
import type { ApsScheme } from "../domain/aps/scheme.ts";
import * as api from "../schema/api.ts";
import type { Bursary, HighSchool, Model, PostalCode, Prospectus, Qualification, Requirement, University } from "./link.ts";
import type { DetailRecordOf, ResourceName, StoredItemOf } from "../schema/resources.ts";

export type DetailRecord<D = unknown> = { key: string; record: D };

/**
 * One resource's records, typed by its registry entry (schema/resources.ts): its stored list items and its detail
 * records have the types of the registry's schemas, so emit and the find index read them as what they are. A union
 * over the registry, one member per resource.
 */
export type ResourceRecords<N extends ResourceName = ResourceName> = N extends ResourceName
  ? {
      name: N;
      /** Paginated list: the list items in their documented order; `parsed` when each item is checked already (parsed
       * by the list schema, or picked from a detail record whose check covers it: listItems), so the emit stage does
       * not check it again. */
      list?: { schema: z.ZodType<StoredItemOf<N>>; items: StoredItemOf<N>[]; parsed?: true };
      /** Unpaginated list (subjects, provinces): served whole with meta {total}. */
      whole?: { schema: z.ZodType<StoredItemOf<N>>; items: StoredItemOf<N>[] };
      /** Detail documents by their path key (slug or id). */
      detail?: { schema: z.ZodType<DetailRecordOf<N>>; records: DetailRecord<DetailRecordOf<N>>[] };
      /** Sub-documents of a detail record: qualification requirements. */
      children?: { schema: z.ZodType; byKey: { key: string; items: unknown[] }[] };
    }
  : never;

function requirementRecord(r: Requirement): api.QualificationRequirement {
  return {
    subject: { name: r.subject.name, slug: r.subject.slug },
    min_level: r.min_level,
    min_percentage: r.min_percentage,
    is_compulsory: r.is_compulsory,
    alternative_group: r.alternative_group,
    route: r.route,
    source_url: r.source_url,
    verified_on: r.verified_on,
  };
}

function qualificationRecord(q: Qualification, scheme: ApsScheme | undefined): api.Qualification {
  return {
    id: q.id,
    name: q.name,
    nqf_level: q.nqf_level,
    min_aps: q.min_aps,
    aps_scheme: scheme?.id ?? "",
    aps_maximum: scheme?.maximum ?? 0,
    university_slug: q.university_slug,
    code: q.code,
    qualification_type: q.qualification_type,
    faculty: q.faculty,
    intake_year: q.intake_year,
    confidence: q.confidence,
    source_url: q.source_url,
    verified_on: q.verified_on,
    general_requirements: q.generalRequirements.map((g) => ({
      rule: g.rule,
      min_level: g.min_level,
      min_percentage: g.min_percentage,
      alternative_group: g.alternative_group,
      route: g.route,
    })),
    sources: q.sources.map((s) => ({
      witness: s.witness,
      title: s.title,
      kind: s.kind,
      url: s.url,
      intake_year: s.intake_year,
      verified_on: s.verified_on,
    })),
  };
}

function universityRecord(u: University): api.University {
  return {
    id: u.id,
    name: u.name,
    short_name: u.short_name,
    slug: u.slug,
    province_name: u.province.name,
    province_id: u.province.id,
    type: u.type,
    website: u.website,
    application_cycles: u.cycles.map((c) => ({
      intake_year: c.intake_year,
      open_date: c.open_date,
      close_date: c.close_date,
      applies_to: c.applies_to,
      source_url: c.source_url,
      verified_on: c.verified_on,
    })),
    fees: u.fees.map((f) => ({
      intake_year: f.intake_year,
      fee_type: f.fee_type,
      applies_to: f.applies_to,
      amount_zar: f.amount_zar,
      source_url: f.source_url,
      verified_on: f.verified_on,
    })),
    source_url: u.source_url,
    verified_on: u.verified_on,
  };
}

function highSchoolRecord(h: HighSchool): api.HighSchool {
  return {
    id: h.id,
    emis_number: h.emis_number,
    name: h.name,
    province: h.province.name,
    quintile: h.quintile,
    nsc_pass_rate: h.nsc_results[0]?.pass_rate ?? null,
    nsc_year: h.nsc_results[0]?.year ?? null,
    district: h.district,
    latitude: h.latitude,
    longitude: h.longitude,
    sector: h.sector,
    phase: h.phase,
    nsc_results: h.nsc_results.map((r) => ({ year: r.year, wrote: r.wrote, passed: r.passed, pass_rate: r.pass_rate, progressed: r.progressed })),
    source_url: h.source_url,
    verified_on: h.verified_on,
  };
}

function bursaryRecord(b: Bursary): api.Bursary {
  const latest = b.cycles[0];
  if (!latest) throw new Error(`bursary ${b.slug} has no cycle (the link stage should have refused it)`);
  return {
    id: b.id,
    slug: b.slug,
    name: b.name,
    closing_date: latest.close_date,
    opening_date: latest.open_date,
    intake_year: latest.intake_year,
    provider_type: b.provider_type,
    fields: b.fields,
    study_levels: b.study_levels,
    recurs: b.recurs,
    expected_next_cycle: b.expected_next_cycle,
    confidence: b.confidence,
    provider: b.provider,
    covers: b.covers,
    value_zar: b.value_zar,
    requires: {
      min_average: b.min_average,
      household_income_max_zar: b.household_income_max_zar,
      citizenship: b.citizenship,
      provinces: b.provinces,
    },
    eligibility: b.eligibility,
    application_url: b.application_url,
    cycles: b.cycles.map((c) => ({
      intake_year: c.intake_year,
      open_date: c.open_date,
      close_date: c.close_date,
      evidence_kind: c.evidence_kind,
      dates_from: c.dates_from,
      corroborated_by: c.corroborated_by,
      source_url: c.source_url,
      verified_on: c.verified_on,
    })),
    source_url: b.source_url,
    verified_on: b.verified_on,
  };
}

function postalCodeRecord(p: PostalCode): api.PostalCode {
  return { id: p.id, suburb: p.suburb, area: p.area, street_code: p.street_code, box_code: p.box_code, province: p.province?.name ?? null };
}

function storedProspectusRecord(p: Prospectus): api.StoredProspectus {
  return {
    id: p.id,
    university_slug: p.university_slug,
    year: p.year,
    title: p.title,
    document_path: prospectusDocumentPath(p),
    source_url: p.source_url,
    verified_on: p.verified_on,
  };
}

export function prospectusDocumentPath(p: Pick<Prospectus, "university_slug" | "year" | "part">): string {
  return `/prospectuses/${p.university_slug}-${p.year}${p.part ? `-${p.part}` : ""}.pdf`;
}

/**
 * A paginated collection whose list items are its detail records cut down to the list schema's fields (in its
 * order), so no field is written twice.
 */
function collection<N extends ResourceName>(
  name: N,
  records: DetailRecord<DetailRecordOf<N>>[],
  detailSchema: z.ZodType<DetailRecordOf<N>>,
  listSchema: z.ZodType<StoredItemOf<N>>,
): ResourceRecords<N> {
  return {
    name,
    list: { schema: listSchema, items: listItems(records, detailSchema, listSchema), parsed: true },
    detail: { schema: detailSchema, records },
  } as ResourceRecords<N>;
}

/** Schema kinds whose output can differ from their input (a default filled in, a value transformed). */
const REWRITING = new Set(["default", "prefault", "pipe", "transform", "catch"]);

/**
 * Each detail record cut down to the list schema's fields. Where every list field that a record holds has the very
 * schema its detail field has (the list schemas share them: schema/api.ts), the emit stage's check of the detail
 * record checks the item too, and the fields are picked as they are; otherwise the list schema parses the record
 * (which also checks it). Parsing every record had cost a tenth of a second of the build for the same items.
 */
export function listItems<N extends ResourceName>(
  records: DetailRecord<DetailRecordOf<N>>[],
  detailSchema: z.ZodType<DetailRecordOf<N>>,
  listSchema: z.ZodType<StoredItemOf<N>>,
): StoredItemOf<N>[] {
  const shapeOf = (schema: z.ZodType) => (schema._zod.def as { shape?: Record<string, z.ZodType> }).shape;
  const [listShape, detailShape] = [shapeOf(listSchema), shapeOf(detailSchema)];
  const rewrites = (schema: z.ZodType | undefined) => schema === undefined || REWRITING.has(schema._zod.def.type);
  // The list object's own checks (a refinement) would go unchecked: those lists are parsed.
  const fields = listShape && detailShape && !rewrites(listSchema) && (listSchema._zod.def.checks ?? []).length === 0 ? Object.keys(listShape) : null;
  const shared = new Set(fields?.filter((field) => detailShape?.[field] === listShape?.[field] && !rewrites(listShape?.[field])));
  // A list field of its own (a high school's distance_km, set per request) is fine where it is optional and absent.
  const staysAbsent = (schema: z.ZodType | undefined) =>
    schema?._zod.def.type === "optional" && !rewrites((schema._zod.def as { innerType?: z.ZodType }).innerType);
  const picks = (record: Record<string, unknown>) =>
    fields?.every((field) => shared.has(field) || (!(field in record) && staysAbsent(listShape?.[field])));
  return records.map(({ record }) => {
    const fieldsOf = record as Record<string, unknown>;
    if (!fields || !picks(fieldsOf)) return listSchema.parse(record);
    const item: Record<string, unknown> = {};
    for (const field of fields) if (field in fieldsOf) item[field] = fieldsOf[field];
    return item as StoredItemOf<N>;
  });
}

export function resourceRecords(model: Model, schemes: Map<string, ApsScheme>, variants: Map<string, ApsScheme> = new Map()): ResourceRecords[] {
  return [
    collection(
      "universities",
      model.universities.map((u) => ({ key: u.slug, record: universityRecord(u) })),
      api.University,
      api.UniversityListItem,
    ),
    {
      ...collection(
        "qualifications",
        model.qualifications.map((q) => ({
          key: q.id,
          record: qualificationRecord(q, (q.aps_scheme === null ? undefined : variants.get(q.aps_scheme)) ?? schemes.get(q.university_slug)),
        })),
        api.Qualification,
        api.QualificationListItem,
      ),
      children: {
        schema: api.QualificationRequirement,
        byKey: model.qualifications.map((q) => ({ key: q.id, items: q.requirements.map(requirementRecord) })),
      },
    },
    {
      name: "subjects",
      whole: {
        schema: api.Subject,
        items: model.subjects.map((s): api.Subject => ({ slug: s.slug, name: s.name, group: s.group, language_level: s.language_level })),
      },
    },
    collection(
      "high-schools",
      model.highSchools.map((h) => ({ key: h.id, record: highSchoolRecord(h) })),
      api.HighSchool,
      api.HighSchoolListItem,
    ),
    collection(
      "bursaries",
      model.bursaries.map((b) => ({ key: b.slug, record: bursaryRecord(b) })),
      api.Bursary,
      api.BursaryListItem,
    ),
    {
      name: "fields-of-study",
      whole: {
        schema: api.FieldOfStudy,
        items: model.fieldsOfStudy.map(
          (f): api.FieldOfStudy => ({ slug: f.slug, name: f.name, description: f.description, bursary_count: f.bursary_count }),
        ),
      },
    },
    collection(
      "postal-codes",
      model.postalCodes.map((p) => ({ key: p.id, record: postalCodeRecord(p) })),
      api.PostalCode,
      api.PostalCodeListItem,
    ),
    { name: "prospectuses", list: { schema: api.StoredProspectus, items: model.prospectuses.map(storedProspectusRecord) } },
    {
      name: "provinces",
      whole: { schema: api.Province, items: model.provinces.map((p): api.Province => ({ id: p.id, name: p.name, code: p.code })) },
    },
  ];
}

/** One record as a partner sees it: its key, and its published fields (for a qualification, with its requirements). */
export type PublishedRecord = { key: string; fields: Record<string, unknown> };

/**
 * A resource's records by key: each detail record (a qualification's with a `requirements` field holding its
 * subject requirements), or, for a resource without detail records, each list item keyed by its slug or id.
 * The record digests, the releases' fingerprints and the bulk files all read records through this.
 */
export function publishedRecords(resource: ResourceRecords): PublishedRecord[] {
  if (resource.detail) {
    const children = resource.children ? new Map(resource.children.byKey.map(({ key, items }) => [key, items])) : null;
    return resource.detail.records.map(({ key, record }) => ({
      key,
      fields: children ? { ...(record as Record<string, unknown>), requirements: children.get(key) ?? [] } : (record as Record<string, unknown>),
    }));
  }
  const items = (resource.list?.items ?? resource.whole?.items ?? []) as Record<string, unknown>[];
  return items.map((fields) => ({ key: typeof fields.slug === "string" ? fields.slug : String(fields.id), fields }));
}

let TEXTS = new WeakMap<object, string>();

/** Drops the texts recordText kept: the build calls it once the files that use them are written (at national scale
 * they are tens of MiB the later stages have no use for). */
export function forgetRecordTexts(): void {
  TEXTS = new WeakMap();
}

/** A record's JSON text, made once per record object: the emit stage (its file or bucket, its digest) and the bulk
 * files (its NDJSON line) all need it. */
export function recordText(record: unknown): string {
  if (record === null || typeof record !== "object") return JSON.stringify(record);
  let text = TEXTS.get(record);
  if (text === undefined) {
    text = JSON.stringify(record);
    TEXTS.set(record, text);
  }
  return text;
}
