// The API's response records, one zod schema each: SPEC.md section 2 plus the additive fields README.md
// documents. The build checks every emitted record against these, the tests check the served JSON
// against them, and their TypeScript types are what the build's record mappers return.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";
import { WITNESS_KINDS } from "../domain/evidence.ts";
import { REQUIREMENT_RULES } from "../domain/requirements.ts";
import { CONFIDENCE_LEVELS, ISO_DATE, OPAQUE_ID, QUALIFICATION_TYPES, SCHOOL_PHASES, SCHOOL_SECTORS, UNIVERSITY_TYPES, UUID } from "../lib/vocabulary.ts";

const date = z.string().regex(ISO_DATE);
const uuid = z.string().regex(UUID);
const opaqueId = z.string().regex(OPAQUE_ID);
const year = z.number().int().min(1900).max(2100);
const provenance = { source_url: z.url(), verified_on: date };

export const ApplicationCycle = z.object({
  intake_year: year,
  open_date: date.nullable(),
  close_date: date,
  applies_to: z.string(),
  ...provenance,
});

export const UniversityFee = z.object({
  intake_year: year,
  fee_type: z.string(),
  applies_to: z.string(),
  amount_zar: z.number().min(0),
  ...provenance,
});

export const UniversityListItem = z.object({
  id: uuid,
  name: z.string(),
  short_name: z.string(),
  slug: z.string(),
  province_name: z.string(),
});

export const University = UniversityListItem.extend({
  province_id: z.string(),
  type: z.enum(UNIVERSITY_TYPES).nullable(),
  website: z.url(),
  application_cycles: z.array(ApplicationCycle),
  fees: z.array(UniversityFee),
  ...provenance,
});

export const QualificationListItem = z.object({
  id: uuid,
  name: z.string(),
  nqf_level: z.number().int().min(5).max(8),
  /** null where the university publishes no APS minimum for it (admission on subject requirements, or on
   * another score such as an index with the NBT). */
  min_aps: z.number().int().nullable(),
  /** The APS scheme min_aps is on (GET /v1/data/aps-calculator scores with it) and that scheme's maximum. */
  aps_scheme: z.string(),
  aps_maximum: z.number().int(),
  university_slug: z.string(),
  /** The university's own programme code, where it publishes one. */
  code: z.string().nullable(),
  qualification_type: z.enum(QUALIFICATION_TYPES),
  faculty: z.string().nullable(),
  intake_year: year,
  /** Derived from the witnesses (README, "The programme catalogue"): high = the university's own page or
   * document for this intake states it; medium = a transcription of a named official document, or two
   * independent witnesses; low = one third-party witness. */
  confidence: z.enum(CONFIDENCE_LEVELS),
  ...provenance,
});

export const GeneralRequirement = z.object({
  /** other-language: another official language (home or first additional); other-subject: one more subject, not Life Orientation. */
  rule: z.enum(REQUIREMENT_RULES),
  min_level: z.number().int().min(1).max(7),
  min_percentage: z.number().int().min(0).max(100),
  /** Set when the rule is one alternative of a group whose subject options are in the requirements list. */
  alternative_group: z.string().nullable(),
});

export const QualificationSource = z.object({
  witness: z.string(),
  title: z.string(),
  kind: z.enum(WITNESS_KINDS),
  url: z.url(),
  intake_year: year.nullable(),
  verified_on: date,
});

export const Qualification = QualificationListItem.extend({
  general_requirements: z.array(GeneralRequirement),
  /** Every witness of the record's facts, strongest first. */
  sources: z.array(QualificationSource).min(1),
});

export const QualificationRequirement = z.object({
  subject: z.object({ name: z.string(), slug: z.string() }),
  min_level: z.number().int().min(1).max(7),
  min_percentage: z.number().int().min(0).max(100),
  is_compulsory: z.boolean(),
  alternative_group: z.string().nullable(),
  ...provenance,
});

export const Subject = z.object({
  slug: z.string(),
  name: z.string(),
  group: z.string(),
  language_level: z.enum(["HL", "FAL", "SAL"]).nullable(),
});

/** One year of a school's National Senior Certificate results (the DBE's NSC School Performance Report). */
export const NscResult = z.object({
  year,
  /** Learners who wrote the NSC examinations. */
  wrote: z.number().int().min(1),
  /** Learners who achieved the NSC. */
  passed: z.number().int().min(0),
  /** 100 × passed / wrote, one decimal. */
  pass_rate: z.number().min(0).max(100),
  /** Progressed learners (promoted to Grade 12 without meeting the Grade 11 requirements); null where not given. */
  progressed: z.number().int().min(0).nullable(),
});

export const HighSchoolListItem = z.object({
  id: opaqueId,
  emis_number: z.string().regex(/^\d+$/),
  name: z.string(),
  province: z.string(),
  quintile: z.number().int().min(1).max(5).nullable(),
  /** The pass rate of the latest year in nsc_results, and that year; null where the school has none. */
  nsc_pass_rate: z.number().min(0).max(100).nullable(),
  nsc_year: year.nullable(),
  /** Only with `near`: the great-circle distance from that point, in km (3 decimals). */
  distance_km: z.number().min(0).optional(),
});

export const HighSchool = HighSchoolListItem.omit({ distance_km: true }).extend({
  district: z.string().nullable(),
  latitude: z.number().min(-35).max(-22).nullable(),
  longitude: z.number().min(16).max(33).nullable(),
  sector: z.enum(SCHOOL_SECTORS),
  phase: z.enum(SCHOOL_PHASES),
  /** Newest year first; [] where the report has no results for the school. */
  nsc_results: z.array(NscResult),
  ...provenance,
});

export const BursaryListItem = z.object({
  id: opaqueId,
  slug: z.string(),
  name: z.string(),
  closing_date: date,
});

export const Bursary = BursaryListItem.extend({
  provider: z.string(),
  provider_type: z.string(),
  fields: z.array(z.string()).min(1),
  eligibility: z.string(),
  application_url: z.url(),
  ...provenance,
});

export const PostalCodeListItem = z.object({
  id: opaqueId,
  suburb: z.string(),
  area: z.string(),
  street_code: z.string().regex(/^\d{4}$/).nullable(),
  box_code: z.string().regex(/^\d{4}$/).nullable(),
});

export const PostalCode = PostalCodeListItem.extend({
  province: z.string().nullable(),
});

/**
 * As stored in dist/: `url` is filled in by the Worker, because the asset base (ASSET_URL) belongs to
 * the deployment, not to the data.
 */
export const StoredProspectus = z.object({
  id: opaqueId,
  university_slug: z.string(),
  year,
  title: z.string().nullable(),
  document_path: z.string().regex(/^\/prospectuses\/[a-z0-9-]+-\d{4}(-[a-z0-9-]+)?\.pdf$/),
  source_url: z.url(),
  verified_on: date,
});

export const Prospectus = z.object({
  id: opaqueId,
  university_slug: z.string(),
  year,
  /** null for a university-wide prospectus; the part's name where a university publishes one per faculty. */
  title: z.string().nullable(),
  url: z.url(),
  source_url: z.url(),
  verified_on: date,
});

export const Province = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
});

const ErrorDetail = z.object({
  path: z.string().describe("Where the problem is: a query parameter, or a path into the request body such as `marks[2].percentage`."),
  message: z.string(),
});

export const ErrorBody = z.object({
  error: z.object({
    status: z.number().int(),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
  }),
});

/** The error body of one HTTP status, its code limited to `codes` (the OpenAPI document has one per status and operation). */
export function errorBodyWith(status: number, codes: readonly [ErrorCode, ...ErrorCode[]]) {
  return z.object({
    error: z.object({
      status: z.literal(status),
      code: z.enum(codes).describe("Stable, machine-readable: branch on this, not on `message`."),
      message: z.string().describe("For people; the wording may change."),
      details: z.array(ErrorDetail).optional().describe("Field problems, one per parameter or body field."),
    }),
  });
}

export const PageMeta = z.object({ total: z.number().int().min(0), page: z.number().int().min(1), per_page: z.number().int().min(1) });
export const TotalMeta = z.object({ total: z.number().int().min(0) });

/** The envelopes (README: Envelope): a page of a paginated list, a whole list, one record or computation. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMeta });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: TotalMeta });
export const recordOf = <T extends z.ZodType>(record: T) => z.object({ data: record });

export type UniversityListItem = z.infer<typeof UniversityListItem>;
export type University = z.infer<typeof University>;
export type QualificationListItem = z.infer<typeof QualificationListItem>;
export type Qualification = z.infer<typeof Qualification>;
export type QualificationRequirement = z.infer<typeof QualificationRequirement>;
export type Subject = z.infer<typeof Subject>;
export type HighSchoolListItem = z.infer<typeof HighSchoolListItem>;
export type HighSchool = z.infer<typeof HighSchool>;
export type NscResult = z.infer<typeof NscResult>;
export type BursaryListItem = z.infer<typeof BursaryListItem>;
export type Bursary = z.infer<typeof Bursary>;
export type PostalCodeListItem = z.infer<typeof PostalCodeListItem>;
export type PostalCode = z.infer<typeof PostalCode>;
export type StoredProspectus = z.infer<typeof StoredProspectus>;
export type Prospectus = z.infer<typeof Prospectus>;
export type Province = z.infer<typeof Province>;
export type ErrorBody = z.infer<typeof ErrorBody>;
