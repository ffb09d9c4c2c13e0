// The APS scheme tables: one scheme per university and intake, the scales its subjects are scored on,
// the classes of subjects those scales and selection places apply to, which subjects count, and bonus
// points. sources/README.md and docs/aps.md document the same columns for people. Checks across rows
// (band coverage, one scheme per university, maxima) are in build/aps.ts.
import { z } from "zod";
import { defineTable } from "./define.ts";
import * as cell from "./cells.ts";
import { APS_METHODS, LIFE_ORIENTATION_TREATMENTS } from "../../domain/aps/scheme.ts";
import { CONFIDENCE_LEVELS, LANGUAGE_LEVELS, SUBJECT_GROUPS } from "../../lib/vocabulary.ts";

export function apsTables(today: string) {
  const provenance = cell.provenance(today);

  const apsSchemes = defineTable({
    name: "aps-schemes",
    patterns: ["aps-schemes.csv"],
    row: z.object({
      scheme: cell.slug(),
      university_slug: cell.slug(),
      intake_year: cell.integer(2000, 2100),
      // Empty for the university's main scheme; a slug for another method some of its programmes use
      // (qualifications name it in their aps_scheme column).
      variant: cell.optionalSlug(),
      name: cell.text(),
      method: cell.oneOf(APS_METHODS),
      life_orientation: cell.oneOf(LIFE_ORIENTATION_TREATMENTS),
      maximum: cell.integer(1, 1000),
      // true: a programme's required subjects always count (UCT, Wits, Rhodes); empty or false: the best count.
      required_subjects_counted: cell.optionalBoolean(),
      confidence: cell.oneOf(CONFIDENCE_LEVELS),
      notes: cell.optionalText(),
      ...provenance,
    }),
    key: ["scheme"],
    references: [{ column: "university_slug", table: "universities", targetColumn: "slug" }],
  });

  const apsScales = defineTable({
    name: "aps-scales",
    patterns: ["aps-scales.csv"],
    row: z
      .object({
        scale: cell.slug(),
        from_percentage: cell.integer(0, 100),
        to_percentage: cell.integer(0, 100),
        points: cell.optionalDecimal(0, 1000),
        points_per_percent: cell.optionalDecimal(0, 10),
        ...provenance,
      })
      .refine((r) => r.from_percentage <= r.to_percentage, {
        path: ["to_percentage"],
        error: "a to_percentage at or above from_percentage",
      })
      .refine((r) => (r.points === null) !== (r.points_per_percent === null), {
        path: ["points"],
        error: "exactly one of points (fixed) and points_per_percent (points = percentage x factor)",
      }),
    key: ["scale", "from_percentage"],
  });

  const apsSubjectClasses = defineTable({
    name: "aps-subject-classes",
    patterns: ["aps-subject-classes.csv"],
    row: z
      .object({
        class: cell.slug(),
        subject_slug: cell.optionalSlug(),
        subject_group: cell.optionalOneOf(SUBJECT_GROUPS),
        language_level: cell.optionalOneOf(LANGUAGE_LEVELS),
        ...provenance,
      })
      .refine((r) => (r.subject_slug === null) !== (r.subject_group === null), {
        path: ["subject_slug"],
        error: "exactly one of subject_slug and subject_group",
      })
      .refine((r) => r.language_level === null || r.subject_group !== null, {
        path: ["language_level"],
        error: "an empty language_level when subject_slug is given (language_level narrows a subject_group)",
      }),
    key: ["class", "subject_slug", "subject_group", "language_level"],
    references: [{ column: "subject_slug", table: "subjects", targetColumn: "slug" }],
  });

  const apsSchemeScales = defineTable({
    name: "aps-scheme-scales",
    patterns: ["aps-scheme-scales.csv"],
    row: z.object({
      scheme: cell.slug(),
      class: cell.optionalSlug(),
      scale: cell.slug(),
      ...provenance,
    }),
    key: ["scheme", "class"],
    references: [
      { column: "scheme", table: "aps-schemes", targetColumn: "scheme" },
      { column: "class", table: "aps-subject-classes", targetColumn: "class" },
      { column: "scale", table: "aps-scales", targetColumn: "scale" },
    ],
  });

  const apsSchemeSelection = defineTable({
    name: "aps-scheme-selection",
    patterns: ["aps-scheme-selection.csv"],
    row: z.object({
      scheme: cell.slug(),
      position: cell.integer(1, 20),
      class: cell.slug(),
      count: cell.integer(1, 20),
      note: cell.text(),
      ...provenance,
    }),
    key: ["scheme", "position"],
    references: [
      { column: "scheme", table: "aps-schemes", targetColumn: "scheme" },
      { column: "class", table: "aps-subject-classes", targetColumn: "class" },
    ],
  });

  const apsBonuses = defineTable({
    name: "aps-bonuses",
    patterns: ["aps-bonuses.csv"],
    row: z
      .object({
        scheme: cell.slug(),
        class: cell.slug(),
        from_percentage: cell.integer(0, 100),
        to_percentage: cell.integer(0, 100),
        points: cell.decimal(0, 100),
        ...provenance,
      })
      .refine((r) => r.from_percentage <= r.to_percentage, {
        path: ["to_percentage"],
        error: "a to_percentage at or above from_percentage",
      }),
    key: ["scheme", "class", "from_percentage"],
    references: [
      { column: "scheme", table: "aps-schemes", targetColumn: "scheme" },
      { column: "class", table: "aps-subject-classes", targetColumn: "class" },
    ],
  });

  return { apsSchemes, apsScales, apsSubjectClasses, apsSchemeScales, apsSchemeSelection, apsBonuses };
}
