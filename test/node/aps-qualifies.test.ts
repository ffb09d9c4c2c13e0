// qualifies_for: every listed qualification meets its min_aps and subject requirements, and every one
// left out fails at least one of them, with the failure named. Checked on a hand-made document and on
// the documents the build wrote to dist/_internal/aps (when dist/ exists: `npm run build`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { apsScoreOf, computeAps } from "../../domain/aps/engine.ts";
import { type NearMiss, nearMissOf, nearMissWith, orderNearMisses } from "../../domain/aps/near-miss.ts";
import { NSC_PASSES, type NscContext, nscPassOf, nscShortfall, PASS_FOR_TYPE } from "../../domain/nsc-pass.ts";
import {
  explainQualification,
  explainQualifications,
  learnerOf,
  percentagesOf,
  qualifiesFor,
  requirementSetOf,
  unmetRequirements,
} from "../../domain/aps/qualify.ts";
import type { ApsIndex } from "../../domain/aps/validation.ts";
import { answerCompareRequest } from "../../domain/aps/compare.ts";
import { apsResultOf } from "../../domain/aps/request.ts";
import type { ApsQualification, ApsRequirement, ApsUniversityDocument, Mark } from "../../domain/aps/scheme.ts";
import { prepareTestDataset, TEST_DIST } from "../../support/test-dataset.ts";
import { ENGLISH_NSC, NSC_7, testScheme } from "../support/aps-documents.ts";
import { present } from "../support/present.ts";

const requirement = (subject_slug: string, min_percentage: number, options: Partial<ApsRequirement> = {}): ApsRequirement => ({
  subject_slug,
  min_percentage,
  min_level: 1,
  is_compulsory: true,
  alternative_group: null,
  ...options,
});
const alternative = (group: string, subject_slug: string, min_percentage: number) =>
  requirement(subject_slug, min_percentage, { is_compulsory: false, alternative_group: group });

const SUBJECTS = [
  "english-home-language",
  "english-first-additional-language",
  "mathematics",
  "mathematical-literacy",
  "physical-sciences",
  "life-sciences",
  "geography",
  "history",
];

const FIXTURE: ApsUniversityDocument = {
  university: { slug: "test-university", name: "Test University", short_name: "TU" },
  scheme: testScheme(SUBJECTS, 6, { id: "test-2026", university_slug: "test-university", intake_year: 2026 }),
  qualifications: [
    { id: "open", name: "Open", qualification_type: "higher-certificate", min_aps: 20, requirements: [] },
    {
      id: "science",
      name: "Science",
      qualification_type: "higher-certificate",
      min_aps: 30,
      requirements: [
        requirement("mathematics", 60),
        alternative("english", "english-home-language", 50),
        alternative("english", "english-first-additional-language", 60),
      ],
    },
    {
      id: "commerce",
      name: "Commerce",
      qualification_type: "higher-certificate",
      min_aps: 25,
      requirements: [
        alternative("maths", "mathematics", 50),
        alternative("maths", "mathematical-literacy", 70),
        // Recommended only: never checked.
        requirement("physical-sciences", 90, { is_compulsory: false }),
      ],
    },
    {
      id: "selective",
      name: "Selective",
      qualification_type: "higher-certificate",
      min_aps: 40,
      requirements: [requirement("physical-sciences", 80)],
    },
  ],
  subjects: SUBJECTS.map((slug) => ({ slug, name: slug })),
  nsc: ENGLISH_NSC,
};

/**
 * The rule, written out the plain way, as the oracle the engine is checked against: every clause (a
 * compulsory subject, an alternative group, a general rule) gets a subject of its own, tried by brute force.
 */
function meets(q: ApsQualification, marks: readonly Mark[], score: number, ruleSubjects: Record<string, string[]> = {}): boolean {
  if (q.min_aps !== null && score < q.min_aps) return false;
  // Alternative routes: any one whole route (with the requirements every route shares) suffices.
  const routes = [...new Set([...q.requirements, ...(q.general_requirements ?? [])].flatMap((r) => (r.route === undefined ? [] : [r.route])))];
  if (routes.length > 0) return routes.some((route) => meetsRoute(q, marks, ruleSubjects, route));
  return meetsRoute(q, marks, ruleSubjects, undefined);
}

function meetsRoute(q: ApsQualification, marks: readonly Mark[], ruleSubjects: Record<string, string[]>, route: number | undefined): boolean {
  const onRoute = (r: { route?: number }) => r.route === undefined || r.route === route;
  const p = (slug: string) => marks.find((m) => m.subject_slug === slug)?.percentage;
  type Option = { subjects: string[]; min: number };
  const clauses: Option[][] = [];
  const groups = new Map<string, Option[]>();
  for (const r of q.requirements.filter(onRoute)) {
    const option = { subjects: [r.subject_slug], min: r.min_percentage };
    if (r.alternative_group !== null) groups.set(r.alternative_group, [...(groups.get(r.alternative_group) ?? []), option]);
    else if (r.is_compulsory) clauses.push([option]);
  }
  for (const g of (q.general_requirements ?? []).filter(onRoute)) {
    const option = { subjects: ruleSubjects[g.rule] ?? [], min: g.min_percentage };
    if (g.alternative_group !== null) groups.set(g.alternative_group, [...(groups.get(g.alternative_group) ?? []), option]);
    else clauses.push([option]);
  }
  clauses.push(...groups.values());
  const choose = (i: number, used: Set<string>): boolean => {
    if (i === clauses.length) return true;
    for (const option of clauses[i] ?? []) {
      for (const subject of option.subjects) {
        const value = p(subject);
        if (used.has(subject) || value === undefined || value < option.min) continue;
        if (choose(i + 1, new Set([...used, subject]))) return true;
      }
    }
    return false;
  };
  return choose(0, new Set());
}

function checkInvariants(document: ApsUniversityDocument, marks: Mark[], score: number) {
  const ids = qualifiesFor(document, marks, score);
  const listed = new Set(ids);
  const outcomes = explainQualifications(document, marks, score);
  // One outcome per qualification, in the document's order: the outcome of qualification i is outcomes[i].
  expect(outcomes.map((o) => o.id)).toEqual(document.qualifications.map((q) => q.id));
  document.qualifications.forEach((q, i) => {
    const outcome = present(outcomes[i], `the outcome of ${q.id}`);
    expect(listed.has(q.id), q.id).toBe(meets(q, marks, score, document.rule_subjects));
    expect(outcome.qualifies).toBe(listed.has(q.id));
    if (!outcome.qualifies) {
      expect(outcome.failures.length, q.id).toBeGreaterThan(0);
      for (const failure of outcome.failures) {
        if (failure.kind === "min_aps") expect(score).toBeLessThan(failure.min_aps);
        if (failure.kind === "subject") expect(failure.percentage === null || failure.percentage < failure.min_percentage).toBe(true);
        if (failure.kind === "alternatives") {
          for (const option of failure.options) expect(option.percentage === null || option.percentage < option.min_percentage).toBe(true);
        }
      }
    } else {
      expect(outcome.failures).toEqual([]);
    }
  });
  // In the document's order, no repeats.
  expect(ids).toEqual(document.qualifications.map((q) => q.id).filter((id) => ids.includes(id)));
}

const marksFor = (subjects: string[]) =>
  fc
    .uniqueArray(fc.constantFrom(...subjects), { minLength: 1, maxLength: Math.min(12, subjects.length) })
    .chain((slugs) =>
      fc.tuple(
        ...slugs.map((slug) =>
          fc
            .oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(49.99, 50, 59.99, 60, 69.99, 70))
            .map((percentage): Mark => ({ subject_slug: slug, percentage })),
        ),
      ),
    )
    .map((tuple) => [...tuple]);

describe("qualifiesFor on a hand-made document", () => {
  const m = (entries: Record<string, number>): Mark[] => Object.entries(entries).map(([subject_slug, percentage]) => ({ subject_slug, percentage }));

  it("lists what the score and subjects meet", () => {
    const marks = m({ "english-home-language": 55, mathematics: 65, "physical-sciences": 70, "life-sciences": 60, geography: 60, history: 60 });
    // 4 + 5 + 6 + 5 + 5 + 5 = 30
    const { score } = computeAps(FIXTURE.scheme, marks);
    expect(score).toBe(30);
    expect(qualifiesFor(FIXTURE, marks, score)).toEqual(["open", "science", "commerce"]);
  });

  it("names each failed requirement", () => {
    const marks = m({ "english-first-additional-language": 59.99, "mathematical-literacy": 69.99, history: 60 });
    const outcomes = explainQualifications(FIXTURE, marks, 31);
    expect(outcomes.find((o) => o.id === "open")).toMatchObject({ qualifies: true, failures: [] });
    expect(outcomes.find((o) => o.id === "science")?.failures).toEqual([
      { kind: "subject", subject_slug: "mathematics", min_percentage: 60, percentage: null },
      {
        kind: "alternatives",
        group: "english",
        options: [
          { subject_slug: "english-home-language", min_percentage: 50, percentage: null },
          { subject_slug: "english-first-additional-language", min_percentage: 60, percentage: 59.99 },
        ],
      },
    ]);
    expect(outcomes.find((o) => o.id === "commerce")?.failures).toEqual([
      {
        kind: "alternatives",
        group: "maths",
        options: [
          { subject_slug: "mathematics", min_percentage: 50, percentage: null },
          { subject_slug: "mathematical-literacy", min_percentage: 70, percentage: 69.99 },
        ],
      },
    ]);
    expect(outcomes.find((o) => o.id === "selective")?.failures).toEqual([
      { kind: "min_aps", min_aps: 40, score: 31 },
      { kind: "subject", subject_slug: "physical-sciences", min_percentage: 80, percentage: null },
    ]);
  });

  it("meets a group with any one member, and ignores recommendations", () => {
    const marks = m({ "mathematical-literacy": 70, "physical-sciences": 10 });
    expect(qualifiesFor(FIXTURE, marks, 25)).toEqual(["open", "commerce"]);
  });

  it("compares min_aps on the university's scale, at the edge", () => {
    expect(qualifiesFor(FIXTURE, [], 19)).toEqual([]);
    expect(qualifiesFor(FIXTURE, [], 20)).toEqual(["open"]);
  });

  it("keeps its invariants for any marks and score", () => {
    fc.assert(
      fc.property(marksFor(SUBJECTS), fc.integer({ min: 0, max: 42 }), (marks, score) => checkInvariants(FIXTURE, marks, score)),
      { numRuns: runs(500) },
    );
  });
});

// The real build of sources/ that the Worker tests serve (npm test builds it first; alone, this builds it).
await prepareTestDataset();
const DIST_APS = path.join(TEST_DIST, "_internal", "aps");
const builtDocuments: ApsUniversityDocument[] = existsSync(DIST_APS)
  ? readdirSync(DIST_APS)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(readFileSync(path.join(DIST_APS, f), "utf8")) as ApsUniversityDocument)
  : [];

/**
 * Runs of the property per university. Each run checks every qualification of the document, so the runs are
 * bounded by a budget of about 2,000 qualification checks per university, with at least 25 runs (every
 * qualification against 25 different sets of marks) and at most 150: proportional to the work, so a university
 * with 300 programmes costs what one with 15 does (with 1,678 qualifications, a flat 300 runs each took half a
 * minute). `npm run fuzz` multiplies them (test/support/properties.ts).
 */
const QUALIFICATION_CHECKS = 2_000;
const runsFor = (document: ApsUniversityDocument) =>
  runs(Math.min(150, Math.max(25, Math.ceil(QUALIFICATION_CHECKS / document.qualifications.length))));

describe("qualifiesFor on the built documents (.test-dist/_internal/aps)", () => {
  it("has a document for each of the 26 universities", () => {
    expect(builtDocuments).toHaveLength(26);
  });

  it.each(builtDocuments.map((d) => [d.university.slug, d] as const))("%s", (_slug, document) => {
    const known = new Set(document.subjects.map((s) => s.slug));
    for (const q of document.qualifications) {
      for (const r of q.requirements) {
        expect(known.has(r.subject_slug)).toBe(true);
        expect(Number.isInteger(r.min_percentage)).toBe(true);
      }
      if (q.min_aps !== null) expect(q.min_aps).toBeLessThanOrEqual(document.scheme.maximum);
    }
    const subjects = [
      ...new Set([
        ...document.qualifications.flatMap((q) => q.requirements.map((r) => r.subject_slug)),
        "english-home-language",
        "mathematics",
        "mathematical-literacy",
        "life-orientation",
        "geography",
        "history",
      ]),
    ];
    fc.assert(
      fc.property(marksFor(subjects), (marks) => {
        const { score } = computeAps(document.scheme, marks);
        checkInvariants(document, marks, score);
      }),
      { numRuns: runsFor(document) },
    );
  });
});

/**
 * The calculator judges a university's programmes with shortcuts (programmes sharing requirements and a scheme are
 * judged once; a set unmet twice over is not described; programmes far above the score are skipped). Its answer
 * must equal judging every programme on its own: each on the scheme its min_aps is on, with its own score where
 * that scheme counts the required subjects, qualifying by the brute-force `meets` above, near misses from its full
 * outcome.
 */
/** A qualification as one qualification per alternative route (itself when it has none). */
function routeQualifications(q: ApsQualification): ApsQualification[] {
  const routes = [...new Set([...q.requirements, ...(q.general_requirements ?? [])].flatMap((r) => (r.route === undefined ? [] : [r.route])))];
  if (routes.length === 0) return [q];
  const strip = <R extends { route?: number }>(list: R[], route: number) =>
    list.filter((r) => r.route === undefined || r.route === route).map(({ route: _, ...rest }) => rest as R);
  return routes.map((route) => ({
    ...q,
    requirements: strip(q.requirements, route),
    general_requirements: strip(q.general_requirements ?? [], route),
  }));
}

function judgedOneByOne(document: ApsUniversityDocument, marks: Mark[]) {
  const percentages = percentagesOf(marks);
  const rules = document.rule_subjects ?? {};
  const qualifying: string[] = [];
  const misses: NearMiss[] = [];
  const context: NscContext = {
    homeLanguages: new Set(document.nsc.home_languages),
    tenCredit: new Set(document.nsc.ten_credit),
    teachingLanguages: new Set(document.nsc.teaching_language_subjects),
    teachingLanguageName: document.nsc.teaching_language_name,
  };
  const pass = nscPassOf(percentages, context);
  for (const q of document.qualifications) {
    const scheme = (document.variants ?? []).find((v) => v.id === q.scheme) ?? document.scheme;
    // A scheme that counts required subjects counts the compulsory ones the learner takes and the best of each group.
    const required = new Set<string>();
    const groups = new Map<string, string[]>();
    for (const r of q.requirements) {
      if (!percentages.has(r.subject_slug)) continue;
      if (r.alternative_group !== null) groups.set(r.alternative_group, [...(groups.get(r.alternative_group) ?? []), r.subject_slug]);
      else if (r.is_compulsory) required.add(r.subject_slug);
    }
    for (const members of groups.values()) {
      const best = members.reduce((a, b) => ((percentages.get(b) ?? 0) > (percentages.get(a) ?? 0) ? b : a));
      required.add(best);
    }
    const { score } = apsScoreOf(scheme, marks, scheme.required_subjects_counted ? required : new Set());
    // The statutory floor: no pass, nothing; short of the type's pass, at best a near miss on the pass alone.
    if (pass.pass === "none") continue;
    const needed = PASS_FOR_TYPE[q.qualification_type];
    const outcome = explainQualification(q, percentages, score, rules);
    if (NSC_PASSES.indexOf(pass.pass) >= NSC_PASSES.indexOf(needed)) {
      if (meets(q, marks, score, rules)) qualifying.push(q.id);
      // A near miss on any one route: the one missing fewest items (the first of equals).
      const candidates = routeQualifications(q).map((r) => nearMissOf(explainQualification(r, percentages, score, rules), q.min_aps, scheme.maximum));
      const miss = candidates.reduce<NearMiss | null>(
        (best, m) => (m !== null && (best === null || m.missing.length < best.missing.length) ? m : best),
        null,
      );
      if (miss && !meets(q, marks, score, rules)) misses.push({ ...miss, qualification_id: q.id, name: q.name });
      continue;
    }
    const shortfall = needed === "bachelor" || needed === "diploma" ? nscShortfall(percentages, context, needed) : null;
    if (shortfall === null || outcome.failures.some((f) => f.kind !== "min_aps")) continue;
    const aps = outcome.failures.find((f) => f.kind === "min_aps");
    const miss = nearMissWith(q, aps ? { min_aps: aps.min_aps, score: aps.score } : null, scheme.maximum, [{ kind: "nsc", ...shortfall }]);
    if (miss) misses.push(miss);
  }
  return { qualifying, misses: orderNearMisses(misses) };
}

// Marks for the shortcuts' edges: percentages drawn mostly from a few values, so a group's options often tie (its
// first listed option then counts) and marks sit on the minimums.
const tyingMarksFor = (subjects: string[]) =>
  fc
    .uniqueArray(fc.constantFrom(...subjects), { minLength: 1, maxLength: Math.min(12, subjects.length) })
    .chain((slugs) =>
      fc.tuple(
        ...slugs.map((slug) =>
          fc
            .oneof({ arbitrary: fc.constantFrom(40, 50, 60, 70), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 100 }), weight: 1 })
            .map((percentage): Mark => ({ subject_slug: slug, percentage })),
        ),
      ),
    )
    .map((tuple) => [...tuple]);

const subjectsToTry = (document: ApsUniversityDocument) =>
  [
    ...new Set([
      ...document.qualifications.flatMap((q) => q.requirements.map((r) => r.subject_slug)),
      ...Object.values(document.rule_subjects ?? {}).flatMap((slugs) => slugs.slice(0, 3)),
      "english-home-language",
      "mathematics",
      "life-orientation",
    ]),
  ].filter((slug) => document.subjects.some((s) => s.slug === slug));

describe("the calculator's answer on the built documents equals judging each programme on its own", () => {
  it("covers every shortcut: schemes that count required subjects, variant schemes, rule requirements", () => {
    expect(builtDocuments.some((d) => d.scheme.required_subjects_counted)).toBe(true);
    expect(builtDocuments.some((d) => (d.variants ?? []).length > 0)).toBe(true);
    expect(builtDocuments.some((d) => d.qualifications.some((q) => (q.general_requirements ?? []).length > 0))).toBe(true);
  });

  it.each(builtDocuments.map((d) => [d.university.slug, d] as const))("%s", (_slug, document) => {
    fc.assert(
      fc.property(fc.oneof(marksFor(subjectsToTry(document)), tyingMarksFor(subjectsToTry(document))), (marks) => {
        const answer = apsResultOf(document, marks);
        const expected = judgedOneByOne(document, marks);
        expect(answer.qualifies_for).toEqual(expected.qualifying);
        expect(answer.near_misses).toEqual(expected.misses);
      }),
      { numRuns: Math.ceil(runsFor(document) / 2) },
    );
  });

  it("a group's options at the same percentage: the first listed is the one a scheme that counts required subjects counts", () => {
    // English First Additional Language scores a point less than Home Language here, and the programme's English
    // group lists it first: with both at 70%, FAL is the required subject, so the score is 5 and the minimum 6 is a
    // near miss.
    const scheme = {
      ...FIXTURE.scheme,
      required_subjects_counted: true,
      scales: [
        {
          class: "fal",
          subjects: ["english-first-additional-language"],
          scale: "nsc-7-less-one",
          bands: NSC_7.map((b) => ({ ...b, points: (b.points ?? 1) - 1 })),
        },
        { class: null, subjects: null, scale: "nsc-7", bands: NSC_7 },
      ],
      selection: [{ class: "english", subjects: ["english-first-additional-language", "english-home-language"], count: 1, note: "English" }],
      // 10% of 10: one point short is a near miss.
      maximum: 10,
    };
    const document: ApsUniversityDocument = {
      ...FIXTURE,
      scheme,
      qualifications: [
        {
          id: "english-first",
          name: "English first",
          qualification_type: "higher-certificate",
          min_aps: 6,
          requirements: [alternative("english", "english-first-additional-language", 50), alternative("english", "english-home-language", 50)],
        },
      ],
    };
    const marks: Mark[] = [
      { subject_slug: "english-home-language", percentage: 70 },
      { subject_slug: "english-first-additional-language", percentage: 70 },
    ];
    const answer = apsResultOf(document, marks);
    expect(answer).toMatchObject({
      qualifies_for: [],
      near_misses: [{ qualification_id: "english-first", missing: [{ kind: "aps", need: 6, have: 5 }] }],
    });
    expect(answer.near_misses).toEqual(judgedOneByOne(document, marks).misses);
  });
});

describe("rule requirements across universities", () => {
  // Two universities whose "another language" classes differ: one comparison must judge each with its own class,
  // though it reads the learner's marks once for both.
  const withRule = (slug: string, languages: string[]): ApsUniversityDocument => ({
    ...FIXTURE,
    university: { slug, name: slug, short_name: slug },
    qualifications: [
      {
        id: `${slug}-languages`,
        name: "Languages",
        qualification_type: "higher-certificate",
        min_aps: null,
        requirements: [],
        general_requirements: [{ rule: "other-language", min_percentage: 50, alternative_group: null }],
      },
    ],
    subjects: [...FIXTURE.subjects, { slug: "afrikaans-first-additional-language", name: "Afrikaans FAL" }],
    rule_subjects: { "other-language": languages, "other-subject": [] },
  });
  const afrikaans = withRule("afrikaans-counts", ["afrikaans-first-additional-language"]);
  const isizulu = withRule("isizulu-counts", ["isizulu-first-additional-language"]);
  const index: ApsIndex = {
    universities: [afrikaans, isizulu].map((d) => ({ slug: d.university.slug, name: d.university.name })),
    subjects: afrikaans.subjects.map((s) => s.slug),
  };
  const load = async (slug: string) => [afrikaans, isizulu].find((d) => d.university.slug === slug) ?? null;

  it("meet each university's own class in one comparison, whichever comes first", async () => {
    const marks = [{ subject_slug: "afrikaans-first-additional-language", percentage: 60 }];
    for (const order of [
      ["afrikaans-counts", "isizulu-counts"],
      ["isizulu-counts", "afrikaans-counts"],
    ]) {
      const answer = await answerCompareRequest({ marks, university_slugs: order }, index, load);
      if (answer.status !== 200) throw new Error(JSON.stringify(answer));
      const bySlug = new Map(answer.data.data.map((u) => [u.university_slug, u.qualifies_for]));
      expect(bySlug.get("afrikaans-counts")).toEqual(["afrikaans-counts-languages"]);
      expect(bySlug.get("isizulu-counts")).toEqual([]);
    }
  });
});

describe("a learner read before a requirement's subject was numbered", () => {
  it("still meets it (the subject is then looked up by its slug)", () => {
    // A slug no requirement has named in this process, so it is numbered only when the set below is compiled.
    const slug = `subject-numbered-late-${Date.now()}`;
    const learner = learnerOf(new Map([[slug, 65]]));
    const qualification: ApsQualification = {
      id: "late",
      name: "Late",
      qualification_type: "higher-certificate",
      min_aps: null,
      requirements: [requirement(slug, 60)],
    };
    const set = requirementSetOf(qualification, {});
    expect(unmetRequirements(set, learner)).toEqual([]);
    expect(unmetRequirements(set, learnerOf(new Map([[slug, 55]])))).toHaveLength(1);
  });
});

describe("alternative routes (any one whole route suffices; one mark may serve in both of a route's places)", () => {
  // SU's Bachelor of Accounting: "Mathematics 70%, or Mathematics 60% with Accounting 70%".
  const accounting: ApsQualification = {
    id: "bacc",
    name: "Bachelor of Accounting",
    qualification_type: "higher-certificate",
    min_aps: null,
    requirements: [
      requirement("english-home-language", 50),
      requirement("mathematics", 70, { route: 1 }),
      requirement("mathematics", 60, { route: 2 }),
      requirement("accounting", 70, { route: 2 }),
    ],
  };
  const judge = (marks: Record<string, number>) => explainQualification(accounting, new Map(Object.entries(marks)), 0, {});

  it("qualifies on either route", () => {
    expect(judge({ "english-home-language": 90, mathematics: 90 }).qualifies).toBe(true);
    expect(judge({ "english-home-language": 90, mathematics: 65, accounting: 75 }).qualifies).toBe(true);
  });

  it("fails when neither route is met, naming the route that misses least", () => {
    const outcome = judge({ "english-home-language": 90, mathematics: 65, accounting: 60 });
    expect(outcome.qualifies).toBe(false);
    expect(outcome.failures).toEqual([{ kind: "subject", subject_slug: "mathematics", min_percentage: 70, percentage: 65 }]);
    expect(judge({ "english-home-language": 40, mathematics: 90 }).qualifies).toBe(false);
  });

  it("is what the calculator answers", () => {
    const document: ApsUniversityDocument = { ...FIXTURE, qualifications: [accounting] };
    const marks = (m: Record<string, number>) => Object.entries(m).map(([subject_slug, percentage]) => ({ subject_slug, percentage }));
    expect(apsResultOf(document, marks({ "english-home-language": 90, mathematics: 90 })).qualifies_for).toEqual(["bacc"]);
    expect(apsResultOf(document, marks({ "english-home-language": 90, mathematics: 64, accounting: 90 })).qualifies_for).toEqual(["bacc"]);
    expect(apsResultOf(document, marks({ "english-home-language": 90, mathematics: 59, accounting: 90 })).qualifies_for).toEqual([]);
  });
});

describe("a subject in two clauses of one route, on the built documents", () => {
  it("is never a subject required on its own: the model says how clauses combine (routes, or distinct subjects)", async () => {
    await prepareTestDataset();
    const dir = path.join(TEST_DIST, "_internal", "aps");
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f !== "index.json")) {
      const document = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ApsUniversityDocument;
      for (const q of document.qualifications) {
        const routes = [...new Set(q.requirements.flatMap((r) => (r.route === undefined ? [] : [r.route])))];
        for (const route of routes.length > 0 ? routes : [undefined]) {
          const onRoute = q.requirements.filter((r) => r.route === undefined || r.route === route);
          for (const alone of onRoute.filter((r) => r.is_compulsory && r.alternative_group === null)) {
            if (onRoute.some((r) => r !== alone && r.subject_slug === alone.subject_slug && (r.is_compulsory || r.alternative_group !== null)))
              offenders.push(`${document.university.slug}: ${q.name} (${alone.subject_slug})`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  }, 600_000);
});
