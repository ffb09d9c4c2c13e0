// The APS calculator's request and answer bodies as zod schemas: the single calculator's and the comparison's.
// The OpenAPI document shows them (schema/operations.ts), tests check answers against them, and the request
// schemas are what requests are validated with (domain/aps/validation.ts).
import { z } from "zod";
import { NSC_PASSES, NSC_RULES } from "../nsc-pass.ts";
import { CONFIDENCE_LEVELS, MAX_SLUG_LENGTH, SLUG } from "../../lib/vocabulary.ts";
import { APS_METHODS, LIFE_ORIENTATION_TREATMENTS } from "./scheme.ts";

export const MAX_MARKS = 20;

/**
 * The request body, for the OpenAPI document. The checks below (answerApsRequest) say the same field by
 * field with a message per problem, and also check what a schema cannot: that the university and the
 * subjects exist, and that no subject is given twice.
 */
export const ApsRequestSchema = z.object({
  university_slug: z
    .string()
    .max(MAX_SLUG_LENGTH)
    .regex(SLUG)
    .describe("The slug of a university (GET /v1/data/universities); its own APS scheme scores the marks."),
  marks: z
    .array(
      z.object({
        subject_slug: z.string().describe("A subject slug from GET /v1/data/subjects; each subject at most once."),
        percentage: z.number().min(0).max(100).describe("The final NSC percentage, 0 to 100 (fractions allowed)."),
      }),
    )
    .min(1)
    .max(MAX_MARKS)
    .describe(`One entry per subject result, 1 to ${MAX_MARKS}.`),
});

const MissingOptionSchema = z.object({
  subject_slug: z.string().describe("A subject slug, or @other-language / @other-subject for a general requirement."),
  need_level: z.number().int().min(1).max(7),
  have_level: z.number().int().min(1).max(7),
  need_percentage: z.number().min(0).max(100),
  have_percentage: z.number().min(0).max(100),
});

/** A qualification the learner does not meet but would with a small change (domain/aps/near-miss.ts). */
const NearMissSchema = z.object({
  qualification_id: z.string(),
  name: z.string(),
  min_aps: z.number().int().nullable(),
  missing: z.array(
    z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("aps"), need: z.number().int(), have: z.number().int() }),
      MissingOptionSchema.extend({ kind: z.literal("subject") }),
      z.object({ kind: z.literal("group"), group: z.string(), options: z.array(MissingOptionSchema) }),
      z.object({
        kind: z.literal("nsc"),
        pass: z.enum(["diploma", "bachelor"]).describe("The statutory pass the programme needs."),
        need: z.number().int().describe("Subjects other than Life Orientation needed at need_percentage (4)."),
        have: z.number().int().describe("How many the learner has there (3)."),
        subject_slug: z.string().describe("The learner's subject nearest the threshold: raising it earns the pass."),
        need_percentage: z.number(),
        have_percentage: z.number(),
      }),
    ]),
  ),
});

const QualificationNameSchema = z.object({
  id: z.string(),
  name: z.string(),
  min_aps: z.number().int().nullable(),
  /** The scheme min_aps is on: the university's main scheme, or one of other_schemes. */
  aps_scheme: z.string(),
});

/** The statutory minimum at this university (domain/nsc-pass.ts, docs/aps.md#the-statutory-minimum). */
const NscSchema = z.object({
  pass: z
    .enum(NSC_PASSES)
    .describe(
      "The statutory pass the marks earn here: bachelor, diploma, higher-certificate, or none (no NSC, or under 30% in the university's teaching language): none qualifies for nothing.",
    ),
  complete: z.boolean().describe("false: a condition could not be checked on the marks given (its met is null)."),
  conditions: z.array(
    z.object({
      rule: z.enum(NSC_RULES),
      met: z.boolean().nullable(),
      need: z.number(),
      have: z.number().nullable(),
      subject_slug: z.string().optional(),
      reason: z.string(),
    }),
  ),
  reason: z.string().describe("Why the pass is what it is, in words a learner understands."),
  source: z.object({
    admission: z.string().describe("Notice 751 of 2008: the minimum admission requirements per qualification type."),
    nsc: z.string().describe("The NSC's own pass requirements (the National Policy in force since 2014)."),
    teaching_language: z.string().describe("Where this university's language(s) of learning and teaching are stated."),
  }),
});

/** The score on another method some of the university's programmes use (e.g. SMU's health schools). */
const OtherSchemeScoreSchema = z.object({
  id: z.string(),
  name: z.string(),
  aps_score: z.number().int(),
  exact_score: z.number(),
  maximum: z.number().int(),
});

const SchemeSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  intake_year: z.number().int(),
  method: z.enum(APS_METHODS),
  life_orientation: z.enum(LIFE_ORIENTATION_TREATMENTS),
  maximum: z.number().int(),
  confidence: z.enum(CONFIDENCE_LEVELS),
  notes: z.string(),
  source_url: z.string(),
  verified_on: z.string(),
});

/** The 200 data, for response checks in tests and the OpenAPI document. */
export const ApsResultSchema = z.object({
  aps_score: z.number().int(),
  university_slug: z.string(),
  qualifies_for: z.array(z.string()),
  /** The same qualifications as qualifies_for, in the same order, with their names and minimums. */
  qualifications: z.array(QualificationNameSchema),
  near_misses: z.array(NearMissSchema),
  /** Scores on the university's other methods, where some of its programmes use one ([] for most). */
  other_schemes: z.array(OtherSchemeScoreSchema),
  nsc: NscSchema,
  exact_score: z.number(),
  maximum: z.number().int(),
  breakdown: z.array(
    z.object({
      subject_slug: z.string(),
      percentage: z.number().min(0).max(100),
      scale_class: z.string().nullable(),
      points: z.number(),
      bonus_points: z.number(),
      counted: z.boolean(),
      counted_as: z.string().nullable(),
      reason: z.string(),
    }),
  ),
  unfilled: z.array(z.object({ class: z.string(), missing: z.number().int().positive(), note: z.string() })),
  scheme: SchemeSummarySchema,
});
export type ApsResult = z.infer<typeof ApsResultSchema>;

/** One university's answer in a comparison: the single calculator's answer, cut to what a comparison shows. */
const ComparedUniversitySchema = z.object({
  university_slug: z.string(),
  university_name: z.string(),
  aps_score: z.number().int(),
  maximum: z.number().int(),
  scheme: SchemeSummarySchema,
  qualifies_for: z.array(z.string()),
  qualifications: z.array(QualificationNameSchema),
  near_misses: z.array(NearMissSchema),
  other_schemes: z.array(OtherSchemeScoreSchema),
  nsc: NscSchema,
});
export type ComparedUniversity = z.infer<typeof ComparedUniversitySchema>;

export const CompareRequestSchema = z.object({
  marks: ApsRequestSchema.shape.marks,
  university_slugs: z
    .array(z.string().max(MAX_SLUG_LENGTH).regex(SLUG))
    .min(1)
    .optional()
    .describe("The universities to compare, each once (default: all 26)."),
});

export const CompareResultSchema = z.object({
  data: z.array(ComparedUniversitySchema),
  meta: z.object({ universities: z.number().int(), qualifies_for_total: z.number().int() }),
});
export type CompareResult = z.infer<typeof CompareResultSchema>;
