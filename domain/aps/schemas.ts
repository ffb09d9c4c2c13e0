// The APS calculator's request and answer bodies as zod schemas: the single calculator's and the comparison's.
// The OpenAPI document shows them (schema/operations.ts), tests check answers against them, and the request
// schemas are what requests are validated with (domain/aps/validation.ts).
import { z } from "zod";
import { NSC_PASSES, NSC_RULES } from "../nsc-pass.ts";
import { CONFIDENCE_LEVELS, MAX_SLUG_LENGTH, SLUG } from "../../lib/vocabulary.ts";
import { APS_METHODS, LIFE_ORIENTATION_TREATMENTS } from "./scheme.ts";
import { describe, isObject } from "./values.ts";

export const MAX_MARKS = 20;

/** The message of a field that is missing (`required`) or of the wrong type (`expected`), from the value sent. */
const typeError = (required: string, expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required (${required})` : `must be ${expected}, not ${describe(issue.input)}`;

/** A university slug that is not a slug cannot be a known one: the message is the unknown slug's. */
export const unknownUniversity = (slug: string) =>
  `${JSON.stringify(slug.slice(0, MAX_SLUG_LENGTH))} is not a known university slug (see GET /v1/data/universities)`;
// Zod runs length checks on any value with a length, even one of the wrong type: each check here runs only on its own type.
const onStrings = { when: (payload: { value: unknown }) => typeof payload.value === "string" };
const onArrays = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };
const slugForm = { ...onStrings, error: (issue: { input?: unknown }) => unknownUniversity(String(issue.input)) };

const MarkSchema = z.object(
  {
    subject_slug: z
      .string({ error: typeError("a slug from GET /v1/data/subjects", "a string") })
      .describe("A subject slug from GET /v1/data/subjects; each subject at most once."),
    percentage: z
      .number({ error: typeError("a number from 0 to 100", "a number from 0 to 100") })
      .min(0, { error: (issue) => `must be from 0 to 100, not ${String(issue.input)}` })
      .max(100, { error: (issue) => `must be from 0 to 100, not ${String(issue.input)}` })
      .describe("The final NSC percentage, 0 to 100 (fractions allowed)."),
  },
  { error: (issue) => `must be an object {subject_slug, percentage}, not ${describe(issue.input)}` },
);

/**
 * The marks: 1 to MAX_MARKS, each subject once (the cross-item rule, checked even where other marks are wrong).
 * Whether each subject exists is the university's to say (validation.ts).
 */
export const MarksSchema = z
  .array(MarkSchema, { error: typeError("an array of {subject_slug, percentage}", "an array of {subject_slug, percentage}") })
  .min(1, { ...onArrays, error: "must hold at least one mark" })
  .max(MAX_MARKS, { ...onArrays, error: (issue) => `must hold at most ${MAX_MARKS} marks, not ${(issue.input as unknown[]).length}` })
  .superRefine((marks, context) => {
    const firstIndexOf = new Map<string, number>();
    marks.forEach((mark: unknown, i) => {
      const subject = isObject(mark) ? mark.subject_slug : undefined;
      if (typeof subject !== "string") return;
      const first = firstIndexOf.get(subject);
      if (first === undefined) firstIndexOf.set(subject, i);
      else
        context.addIssue({
          code: "custom",
          path: [i, "subject_slug"],
          message: `repeats ${JSON.stringify(subject)} from marks[${first}]; give each subject once`,
        });
    });
  }, onArrays)
  .describe(`One entry per subject result, 1 to ${MAX_MARKS}.`);

/** The marks without their count's limits: zod stops reading the items of a list that is too long, the API does not. */
export const MarksItemsSchema = z.array(MarkSchema);

/**
 * The single calculator's request body: what the OpenAPI document shows and what requests are validated with
 * (domain/aps/request.ts), each problem with its message. Unknown fields are refused, as the comparison does.
 * Whether the university and the subjects exist is checked after (validation.ts).
 */
export const ApsRequestSchema = z.strictObject({
  university_slug: z
    .string({ error: typeError("a university slug from GET /v1/data/universities", "a string") })
    .max(MAX_SLUG_LENGTH, slugForm)
    .regex(SLUG, slugForm)
    .describe("The slug of a university (GET /v1/data/universities); its own APS scheme scores the marks."),
  marks: MarksSchema,
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

/** The comparison's views: the whole answer (the default), or a summary sized for a phone (docs/aps.md#compare). */
const COMPARE_VIEWS = ["full", "summary"] as const;

/** How many near misses a university shows in the summary: its closest (near misses are ordered closest first). */
export const SUMMARY_NEAR_MISSES = 5;

/** The comparison's request body; which universities exist, and naming one twice, are checked after (validation.ts). */
export const CompareRequestSchema = z.strictObject({
  marks: MarksSchema,
  university_slugs: z
    .array(
      z
        .string({ error: (issue) => `must be a string, not ${describe(issue.input)}` })
        .max(MAX_SLUG_LENGTH, slugForm)
        .regex(SLUG, slugForm),
      {
        error: (issue) => `must be an array of university slugs, not ${describe(issue.input)}`,
      },
    )
    .min(1, { ...onArrays, error: "must name at least one university (leave it out to compare all of them)" })
    .optional()
    .describe("The universities to compare, each once (default: all 26)."),
  view: z
    .enum(COMPARE_VIEWS, {
      error: (issue) =>
        `must be "full" or "summary", not ${typeof issue.input === "string" ? JSON.stringify(issue.input.slice(0, 40)) : describe(issue.input)}`,
    })
    .optional()
    .describe(
      `"full" (the default): every university's whole answer. "summary": what depends on the marks, sized for a phone (about a quarter of the bytes): per university its score, qualifies_for, its ${SUMMARY_NEAR_MISSES} closest near misses with near_misses_total, other_schemes, and the pass without its conditions; no qualifications (names and minimums are the qualification records': GET /v1/data/qualifications?university_slug=) and the scheme by its id (aps_scheme). The full view of one university (university_slugs) has the rest.`,
    ),
});

export const CompareResultSchema = z.object({
  data: z.array(ComparedUniversitySchema),
  meta: z.object({ universities: z.number().int(), qualifies_for_total: z.number().int() }),
});

/** One university in the summary view: the full view's fields that depend on the marks, and keys to the rest. */
const SummarizedUniversitySchema = z.object({
  university_slug: z.string(),
  university_name: z.string(),
  aps_score: z.number().int(),
  maximum: z.number().int(),
  aps_scheme: z.string().describe("The id of the scheme aps_score is on (the full view's scheme.id)."),
  qualifies_for: z.array(z.string()),
  near_misses: z.array(NearMissSchema).describe(`The ${SUMMARY_NEAR_MISSES} closest near misses (the full view's first ${SUMMARY_NEAR_MISSES}).`),
  near_misses_total: z.number().int().describe("How many near misses the full view lists."),
  other_schemes: z.array(OtherSchemeScoreSchema),
  nsc: NscSchema.pick({ pass: true, complete: true, reason: true }).describe("The full view's nsc without its conditions and sources."),
});

/** The comparison's summary view (`"view": "summary"`). */
export const CompareSummarySchema = z.object({
  data: z.array(SummarizedUniversitySchema),
  meta: z.object({ universities: z.number().int(), qualifies_for_total: z.number().int(), view: z.literal("summary") }),
});

/** The comparison's answer, in either view. */
export const CompareAnswerSchema = z.union([CompareResultSchema, CompareSummarySchema]);
export type CompareResult = z.infer<typeof CompareResultSchema>;
export type CompareSummary = z.infer<typeof CompareSummarySchema>;
