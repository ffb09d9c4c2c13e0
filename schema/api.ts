// The API's response records, one zod schema each: SPEC.md section 2 plus the additive fields README.md
// documents. The build checks every emitted record against these, the tests check the served JSON
// against them, and their TypeScript types are what the build's record mappers return.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";
import { CONFIDENCE_LEVELS, ISO_DATE, OPAQUE_ID, SCHOOL_PHASES, SCHOOL_SECTORS, UNIVERSITY_TYPES, UUID } from "./vocabulary.ts";

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

export const Qualification = z.object({
  id: uuid,
  name: z.string(),
  nqf_level: z.number().int().min(5).max(8),
  min_aps: z.number().int(),
  university_slug: z.string(),
  qualification_type: z.string(),
  faculty: z.string().nullable(),
  intake_year: year,
  /** How the facts were verified: high = the university's own page or document, medium = a copy or
   * transcription of the university's own document, low = a third-party page. */
  confidence: z.enum(CONFIDENCE_LEVELS),
  ...provenance,
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

export const HighSchoolListItem = z.object({
  id: opaqueId,
  emis_number: z.string().regex(/^\d+$/),
  name: z.string(),
  province: z.string(),
  quintile: z.number().int().min(1).max(5).nullable(),
});

export const HighSchool = HighSchoolListItem.extend({
  district: z.string().nullable(),
  latitude: z.number().min(-35).max(-22).nullable(),
  longitude: z.number().min(16).max(33).nullable(),
  sector: z.enum(SCHOOL_SECTORS),
  phase: z.enum(SCHOOL_PHASES),
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
export type Qualification = z.infer<typeof Qualification>;
export type QualificationRequirement = z.infer<typeof QualificationRequirement>;
export type Subject = z.infer<typeof Subject>;
export type HighSchoolListItem = z.infer<typeof HighSchoolListItem>;
export type HighSchool = z.infer<typeof HighSchool>;
export type BursaryListItem = z.infer<typeof BursaryListItem>;
export type Bursary = z.infer<typeof Bursary>;
export type PostalCodeListItem = z.infer<typeof PostalCodeListItem>;
export type PostalCode = z.infer<typeof PostalCode>;
export type StoredProspectus = z.infer<typeof StoredProspectus>;
export type Prospectus = z.infer<typeof Prospectus>;
export type Province = z.infer<typeof Province>;
export type ErrorBody = z.infer<typeof ErrorBody>;
