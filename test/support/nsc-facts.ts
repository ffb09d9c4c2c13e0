// The statutory minimum's facts of an English-medium university, for hand-made APS documents in tests.
import type { ApsNscFacts } from "../../domain/aps/scheme.ts";

export const ENGLISH_NSC: ApsNscFacts = {
  home_languages: ["english-home-language", "afrikaans-home-language", "isizulu-home-language"],
  ten_credit: ["life-orientation"],
  teaching_language_subjects: ["english-home-language", "english-first-additional-language"],
  teaching_language_name: "English",
  teaching_language_source: "https://example.org/language-policy",
};
