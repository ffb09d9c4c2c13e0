// The README's seven-mark learner, shared by the APS benchmarks (bench/aps.ts, bench/aps-cold.ts) and the tests of
// the compare's size (test/worker/aps-compare.spec.ts). Pure data, so the workerd tests can import it too.

/** A learner's seven subjects, as a matric certificate has them (the README's compare example). */
export const SEVEN_SUBJECTS = [
  { subject_slug: "english-home-language", percentage: 68 },
  { subject_slug: "afrikaans-first-additional-language", percentage: 61 },
  { subject_slug: "mathematics", percentage: 58 },
  { subject_slug: "physical-sciences", percentage: 55 },
  { subject_slug: "life-sciences", percentage: 72 },
  { subject_slug: "geography", percentage: 74 },
  { subject_slug: "life-orientation", percentage: 80 },
];
