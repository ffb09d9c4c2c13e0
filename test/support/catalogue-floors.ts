// The catalogue's floors (issue 15), shared by the plain-Node check on the build's model and the check
// through the API, so the two cannot drift apart.

/** Universities whose own list of undergraduate programmes is shorter than 40 (their NOTES.md say so). */
export const SHORT_LISTS: Readonly<Record<string, number>> = {
  "rhodes-university": 15, // 15 entry programmes; majors are not separate qualifications
  "sol-plaatje-university": 19, // about 20 programmes
  "university-of-mpumalanga": 20, // about 20 programmes
  "sefako-makgatho-health-sciences-university": 22, // a health-sciences university with about 22 programmes
  "mangosuthu-university-of-technology": 27, // MUT's own list is about 30 programmes
};

export const CATALOGUE_FLOORS = {
  total: 1_800,
  perUniversity: 40,
  withRequirements: 0.95,
  /** Rows on the 2027 intake or later, or resting on the university's own 2026 document or page (the rest keep their
   * true intake year, and the build lists them). A row added from an official 2026 document is on the 2026 intake. */
  currentIntake: 0.9,
  /** Rows with an own-page or official-document witness for the 2026 intake or later (issue 26). */
  officialCurrent: 700,
} as const;
