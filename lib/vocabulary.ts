// The project's one vocabulary: every identifier pattern and every closed list of values, defined once.
// The source tables (build/tables/), the API schemas (schema/api.ts), the Worker's router and query
// parser (functions/), the APS request checks (domain/aps/) and the importers all import from here, so
// a value can never be allowed in one place and refused in another.

/** Pattern sources without anchors, so routes can embed them; the anchored RegExps are below. */
export const PATTERN = {
  /** Lower-case kebab-case: university, subject, bursary and field slugs. */
  slug: "[a-z0-9]+(?:-[a-z0-9]+)*",
  /** Any lower-case UUID (the API accepts every version in paths). */
  uuid: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
  /** An RFC 9562 UUID (versions 1-8, variant 10xx): what the sources must hold for new ids. */
  uuidStrict: "[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
  /** Ids derived from a record's key: `hs_…`, `pc_…`, `bur_…`, `pro_…` (build/ids.ts). */
  opaqueId: "[a-z]+_[0-9a-f]{16}",
  date: "\\d{4}-\\d{2}-\\d{2}",
} as const;

const anchored = (source: string) => new RegExp(`^${source}$`);
export const SLUG = anchored(PATTERN.slug);
export const UUID = anchored(PATTERN.uuid);
export const UUID_STRICT = anchored(PATTERN.uuidStrict);
export const OPAQUE_ID = anchored(PATTERN.opaqueId);
export const ISO_DATE = anchored(PATTERN.date);
/** The longest slug a request may name; longer values are refused before any lookup. */
export const MAX_SLUG_LENGTH = 100;

export const CONFIDENCE_LEVELS = ["high", "medium", "low"] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

export const QUALIFICATION_TYPES = [
  "bachelor",
  "diploma",
  "higher-certificate",
  "advanced-certificate",
  "extended-bachelor",
  "extended-diploma",
] as const;
export type QualificationType = (typeof QUALIFICATION_TYPES)[number];

export const UNIVERSITY_TYPES = ["traditional", "comprehensive", "university-of-technology"] as const;

export const SUBJECT_GROUPS = ["official-language", "non-official-language", "mathematics", "life-orientation", "elective"] as const;
export const LANGUAGE_LEVELS = ["HL", "FAL", "SAL"] as const;
/** The languages a university teaches in (its LoLT, Notice 751): each is met by its Home Language or First Additional Language subject. */
export const TEACHING_LANGUAGES = ["english", "afrikaans"] as const;

export const SCHOOL_SECTORS = ["public", "independent"] as const;
export const SCHOOL_PHASES = ["secondary", "combined"] as const;

export const BURSARY_PROVIDER_TYPES = ["government", "provincial", "seta", "municipal", "corporate", "foundation", "university"] as const;

export const FEE_TYPES = ["application"] as const;

// Bursaries (sources/bursaries.csv, sources/bursary-cycles.csv, sources/fields-of-study.csv).

/**
 * The fields of study bursaries are classified by: the slugs of sources/fields-of-study.csv, which gives each
 * its name, description and CESM categories. They are listed here too because the `field` filter is an enum
 * (a typo is a 400, and the OpenAPI document lists the values); the build fails unless the table has a row
 * for each of these and nothing else, and unless every one is used by a bursary.
 */
export const FIELDS_OF_STUDY = [
  "all-fields",
  "accounting-and-finance",
  "actuarial-science",
  "agriculture",
  "arts-and-design",
  "built-environment",
  "commerce-and-management",
  "computer-science-and-it",
  "economics",
  "education",
  "engineering",
  "environmental-sciences",
  "health-sciences",
  "humanities-and-social-sciences",
  "law",
  "mathematics-and-statistics",
  "media-and-communication",
  "mining-and-geology",
  "natural-sciences",
  "public-administration",
  "social-work",
] as const;
export type FieldOfStudySlug = (typeof FIELDS_OF_STUDY)[number];
/** The field of a bursary open to every field of study: `field=<any>` lists it too. */
export const ALL_FIELDS = "all-fields" satisfies FieldOfStudySlug;

/** What a bursary pays for or gives (README: Bursaries). */
export const COVERS = [
  "tuition",
  "registration",
  "accommodation",
  "meals",
  "books",
  "laptop",
  "transport",
  "stipend",
  "medical-aid",
  "mentorship",
  "vacation-work",
  "employment",
  "other",
] as const;

export const STUDY_LEVELS = ["undergraduate", "postgraduate", "tvet"] as const;

/** Who may apply, as the provider states it: `any` = no citizenship rule. */
export const CITIZENSHIP = ["south-african", "south-african-or-permanent-resident", "any"] as const;

export const RECURRENCES = ["annual"] as const;
/**
 * Why a scheme is taken to recur every year: the provider says so (`provider-statement`), or two published
 * cycles fall on the same dates (`past-cycles`; domain/bursary-cycles.ts repeatedDates).
 */
export const RECURRENCE_BASES = ["provider-statement", "past-cycles"] as const;

/** Where a bursary cycle's dates come from: a dated call for that intake, or the provider's standing yearly
 * window ("1 July to 30 September every year"), stated without a year and applied to that intake. */
export const CYCLE_DATES_FROM = ["call", "standing-rule"] as const;
