// The API's response records, one zod schema each: SPEC.md section 2 plus the additive fields README.md
// documents. The build checks every emitted record against these, the tests check the served JSON
// against them, and their TypeScript types are what the build's record mappers return.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";
import { WITNESS_KINDS } from "../domain/evidence.ts";
import { REQUIREMENT_RULES } from "../domain/requirements.ts";
import {
  BURSARY_PROVIDER_TYPES,
  CITIZENSHIP,
  CONFIDENCE_LEVELS,
  COVERS,
  CYCLE_DATES_FROM,
  FIELDS_OF_STUDY,
  ISO_DATE,
  OPAQUE_ID,
  QUALIFICATION_TYPES,
  RECURRENCE_BASES,
  RECURRENCES,
  SCHOOL_PHASES,
  SCHOOL_SECTORS,
  STUDY_LEVELS,
  UNIVERSITY_TYPES,
  UUID,
} from "../lib/vocabulary.ts";

const date = z.string().regex(ISO_DATE);
const uuid = z.string().regex(UUID);
const opaqueId = z.string().regex(OPAQUE_ID);
const year = z.number().int().min(1900).max(2100);
const provenance = { source_url: z.url(), verified_on: date };

const ApplicationCycle = z.object({
  intake_year: year,
  open_date: date.nullable(),
  close_date: date,
  applies_to: z.string(),
  ...provenance,
});

const UniversityFee = z.object({
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

const GeneralRequirement = z.object({
  /** other-language: another official language (home or first additional); other-subject: one more subject, not Life Orientation. */
  rule: z.enum(REQUIREMENT_RULES),
  min_level: z.number().int().min(1).max(7),
  min_percentage: z.number().int().min(0).max(100),
  /** Set when the rule is one alternative of a group whose subject options are in the requirements list. */
  alternative_group: z.string().nullable(),
  /** null: needed whatever the route; n: part of alternative route n (see the requirements list). */
  route: z.number().int().min(1).nullable(),
});

const QualificationSource = z.object({
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
  /** null: needed whatever the route; n: part of alternative route n. Where a qualification's requirements carry
   * routes, any one whole route (with the requirements of route null) suffices. */
  route: z.number().int().min(1).nullable(),
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

/** A published application cycle of a bursary, with the witness it rests on. */
export const BursaryCycle = z.object({
  intake_year: year.describe("The academic year the bursary funds."),
  open_date: date.nullable().describe("When applications open; null where the provider publishes no opening date."),
  close_date: date,
  evidence_kind: z
    .enum(WITNESS_KINDS)
    .describe("What the dates were read on: the provider's own page or document, a transcription of it, or a third-party page."),
  dates_from: z
    .enum(CYCLE_DATES_FROM)
    .describe(
      "call: the provider (or a copy of its call) published these dates for this intake; standing-rule: the provider states the same window every year without a year, and these are that window for this intake.",
    ),
  corroborated_by: z.url().nullable().describe("A second, independent page that gives the same dates; null where none was found."),
  ...provenance,
});

/** An annual scheme's next cycle, projected from its latest published one: never a published date. */
export const ExpectedBursaryCycle = z
  .object({
    intake_year: year,
    open_date: date.nullable(),
    close_date: date,
    expected: z.literal(true).describe("Always true: these dates are projected, not published by the provider."),
    basis: z
      .enum(RECURRENCE_BASES)
      .describe("Why the scheme is taken to recur: the provider says so, or two published cycles fell on the same dates."),
  })
  .describe(
    "Annual schemes only (null otherwise): the latest published cycle moved on by whole years, to the first year whose closing date is on or after the day the data was built. Check the provider's page before relying on it.",
  );

/** Who may apply, where the provider states it (null or [] where it does not); the free-text eligibility has the rest. */
export const BursaryRequirements = z.object({
  min_average: z.number().int().min(1).max(100).nullable().describe("Minimum average mark, in per cent."),
  household_income_max_zar: z.number().int().min(1).nullable().describe("Highest combined household income a year, in rand."),
  citizenship: z.enum(CITIZENSHIP).nullable().describe("Who may apply by citizenship; `any`: no rule; null: not stated."),
  provinces: z
    .array(z.string())
    .describe("Province ids (as /v1/data/provinces lists them) whose residents the bursary is for; [] = no province rule."),
});

export const BursaryListItem = z.object({
  id: opaqueId,
  slug: z.string(),
  name: z.string(),
  closing_date: date.describe("The closing date of the latest published cycle (`cycles[0]` of the detail record)."),
  opening_date: date.nullable().describe("The opening date of the latest published cycle; null where the provider publishes none."),
  intake_year: year.describe("The academic year the latest published cycle funds."),
  provider_type: z.enum(BURSARY_PROVIDER_TYPES),
  fields: z.array(z.enum(FIELDS_OF_STUDY)).min(1).describe("Fields of study, as slugs of /v1/data/fields-of-study; `all-fields`: open to any field."),
  study_levels: z.array(z.enum(STUDY_LEVELS)).min(1),
  recurs: z.enum(RECURRENCES).nullable().describe("`annual`: the scheme runs every year (see `expected_next_cycle`); null: not known to recur."),
  expected_next_cycle: ExpectedBursaryCycle.nullable(),
  confidence: z
    .enum(CONFIDENCE_LEVELS)
    .describe(
      "How sure the latest cycle's dates are: high = the provider's own page or document; medium = a transcription, or two independent third-party pages; low = one third-party page.",
    ),
});

export const Bursary = BursaryListItem.extend({
  provider: z.string(),
  covers: z.array(z.enum(COVERS)).describe("What the bursary pays for or gives, where the provider itemises it ([] where it does not)."),
  value_zar: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe("An amount the provider publishes, in rand (usually the most it pays a year); null where none is published."),
  requires: BursaryRequirements,
  eligibility: z.string(),
  application_url: z.url(),
  cycles: z.array(BursaryCycle).min(1).describe("Every published cycle, newest intake first."),
  ...provenance,
});

/** A field of study of the bursaries' vocabulary. */
export const FieldOfStudy = z.object({
  slug: z.enum(FIELDS_OF_STUDY),
  name: z.string(),
  description: z.string(),
  bursary_count: z.number().int().min(0).describe("The bursaries `GET /v1/data/bursaries?field=<slug>` lists (those open to all fields included)."),
});

export const PostalCodeListItem = z.object({
  id: opaqueId,
  suburb: z.string(),
  area: z.string().nullable().describe("The town or city the suburb belongs to; null where the postal code list names none."),
  street_code: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
  box_code: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
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
export type BursaryListItem = z.infer<typeof BursaryListItem>;
export type Bursary = z.infer<typeof Bursary>;
export type BursaryCycle = z.infer<typeof BursaryCycle>;
export type FieldOfStudy = z.infer<typeof FieldOfStudy>;
export type PostalCodeListItem = z.infer<typeof PostalCodeListItem>;
export type PostalCode = z.infer<typeof PostalCode>;
export type StoredProspectus = z.infer<typeof StoredProspectus>;
export type Prospectus = z.infer<typeof Prospectus>;
export type Province = z.infer<typeof Province>;
export type ErrorBody = z.infer<typeof ErrorBody>;
