// The shapes the APS engine works on. The build assembles an ApsUniversityDocument per university from
// the aps-*.csv tables (build/aps.ts) and the Worker reads it back, so these types are the contract
// between the two. Subject classes arrive resolved to subject slugs: the engine never needs the subject
// table's groups, which keeps it small enough to run per request on workerd.
import type { Confidence, QualificationType } from "../../lib/vocabulary.ts";
import type { RequirementRule } from "../requirements.ts";

export const APS_METHODS = ["points", "percentage-sum", "percentage-average", "percentage-tenths"] as const;
type ApsMethod = (typeof APS_METHODS)[number];

export const LIFE_ORIENTATION_TREATMENTS = ["excluded", "counted", "separate-table", "bonus"] as const;
type LifeOrientationTreatment = (typeof LIFE_ORIENTATION_TREATMENTS)[number];

/**
 * One band of a scale. `from` and `to` are whole percentages as universities print them ("50-59"); a
 * percentage p is in the band when from <= floor(p) <= to, so 59.99 is in 50-59, never in 60-69.
 * Exactly one of `points` (a fixed value) and `points_per_percent` (points = p x factor, e.g. 0.1 for
 * "percentage / 10") is set.
 */
export type ScaleBand = { from: number; to: number; points: number | null; points_per_percent: number | null };

/** Which scale a class of subjects is scored on. `class` null is the scheme's default scale. */
export type ScaleAssignment = { class: string | null; subjects: string[] | null; scale: string; bands: ScaleBand[] };

/** A place in the selection: the best `count` remaining subjects of a class count, in scheme order. */
export type SelectionSlot = { class: string; subjects: string[]; count: number; note: string };

/** Extra points for a counted-subject class when its percentage lies in a band (Wits: +2 for English at 60%+). */
export type BonusRule = { class: string; subjects: string[]; from: number; to: number; points: number };

export type ApsScheme = {
  id: string;
  university_slug: string;
  name: string;
  intake_year: number;
  /** null for the university's main scheme; a name for another method some of its programmes use. */
  variant: string | null;
  method: ApsMethod;
  life_orientation: LifeOrientationTreatment;
  /** The programme's required subjects always count (UCT: "English and any required subject(s) ... and the
   * next best"); a qualification's score then depends on its requirements. */
  required_subjects_counted?: boolean;
  /** The highest score possible on this scheme, as the university states it (whole number). */
  maximum: number;
  confidence: Confidence;
  notes: string;
  source_url: string;
  verified_on: string;
  /** Non-default scales first, the default (class null) last. A subject is in at most one non-default class. */
  scales: ScaleAssignment[];
  selection: SelectionSlot[];
  bonuses: BonusRule[];
};

export type ApsRequirement = {
  subject_slug: string;
  min_level: number;
  min_percentage: number;
  is_compulsory: boolean;
  alternative_group: string | null;
  /** Absent: needed on every route; n: part of alternative route n (any one whole route suffices). */
  route?: number;
};

/** A requirement on a class of subjects ("another language at level 4"); with an alternative_group it is one
 * option of that group, beside the group's subject requirements. */
type ApsGeneralRequirement = { rule: RequirementRule; min_percentage: number; alternative_group: string | null; route?: number };

export type ApsQualification = {
  id: string;
  name: string;
  /** bachelor, extended-bachelor, diploma, ...: which statutory pass it needs (domain/nsc-pass.ts). */
  qualification_type: QualificationType;
  /** null: no APS minimum is published; only the subject requirements are checked. */
  min_aps: number | null;
  /** The variant scheme min_aps is on; absent for the university's main scheme. */
  scheme?: string;
  requirements: ApsRequirement[];
  general_requirements?: ApsGeneralRequirement[];
};

export type ApsUniversityDocument = {
  university: { slug: string; name: string; short_name: string };
  scheme: ApsScheme;
  /** Other methods some of the university's programmes use (a qualification names one in `scheme`). */
  variants?: ApsScheme[];
  qualifications: ApsQualification[];
  /** Every valid subject slug, so a request with an unknown subject is answered without another file. */
  subjects: { slug: string; name: string }[];
  /** The subjects each general requirement rule can be met with. */
  rule_subjects?: Record<RequirementRule, string[]>;
  /** What the statutory minimum needs to know (domain/nsc-pass.ts). */
  nsc: ApsNscFacts;
};

/** The subjects the statutory minimum reads, and the university's language(s) of learning and teaching. */
export type ApsNscFacts = {
  /** Official languages at Home Language level. */
  home_languages: string[];
  /** Subjects of 10 credits (Life Orientation): never among the four 20-credit subjects. */
  ten_credit: string[];
  /** The subjects that meet the teaching-language minimum (its languages at HL or FAL). */
  teaching_language_subjects: string[];
  /** Its teaching languages as a learner reads them: "English", "English or Afrikaans". */
  teaching_language_name: string;
  /** Where the university's teaching languages are stated. */
  teaching_language_source: string;
};

export type Mark = { subject_slug: string; percentage: number };
