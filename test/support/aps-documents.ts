// Pieces of hand-made APS documents that several test files build: the NSC's seven-point scale, a scheme on it, a
// requirement, and the statutory minimum's facts of an English-medium university.
import type { ApsNscFacts, ApsRequirement, ApsScheme } from "../../domain/aps/scheme.ts";

/** The NSC achievement levels 1 to 7 as points, one band per level. */
export const NSC_7 = [0, 30, 40, 50, 60, 70, 80].map((from, i, all) => ({
  from,
  to: (all[i + 1] ?? 101) - 1,
  points: i + 1,
  points_per_percent: null,
}));

/** A scheme on the NSC levels (maximum 42) counting the best `count` of `subjects`; `overrides` change the rest. */
export function testScheme(subjects: string[], count: number, overrides: Partial<ApsScheme> = {}): ApsScheme {
  return {
    id: "test-2027",
    university_slug: "test",
    name: "Test APS",
    intake_year: 2027,
    variant: null,
    method: "points",
    life_orientation: "excluded",
    maximum: 42,
    confidence: "high",
    notes: "",
    source_url: "https://example.org/",
    verified_on: "2026-11-21",
    scales: [{ class: null, subjects: null, scale: "nsc-7", bands: NSC_7 }],
    selection: [{ class: "all", subjects, count, note: `the best ${count}` }],
    bonuses: [],
    ...overrides,
  };
}

/** A compulsory subject requirement at a percentage (`options` make it an alternative or a route). */
export const requirement = (subject_slug: string, min_percentage: number, options: Partial<ApsRequirement> = {}): ApsRequirement => ({
  subject_slug,
  min_percentage,
  min_level: 1,
  is_compulsory: true,
  alternative_group: null,
  ...options,
});

export const ENGLISH_NSC: ApsNscFacts = {
  home_languages: ["english-home-language", "afrikaans-home-language", "isizulu-home-language"],
  ten_credit: ["life-orientation"],
  teaching_language_subjects: ["english-home-language", "english-first-additional-language"],
  teaching_language_name: "English",
  teaching_language_source: "https://example.org/language-policy",
};
