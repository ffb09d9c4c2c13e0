// Near misses and the comparison, on hand-written documents: every kind of missing item, every boundary
// of "small" (exactly 10% of the maximum short is a near miss, one point more is not; one level short is,
// two are not; a subject not taken is not), the order, and every 422 of the comparison.
import { describe, expect, it } from "vitest";
import { nearMissOf, NEAR_MISS_APS_SHARE, type NearMiss, orderNearMisses } from "../../domain/aps/near-miss.ts";
import { explainQualification, percentagesOf } from "../../domain/aps/qualify.ts";
import { answerCompareRequest } from "../../domain/aps/compare.ts";
import { apsResultOf } from "../../domain/aps/request.ts";
import type { ApsIndex } from "../../domain/aps/validation.ts";
import type { ApsQualification, ApsRequirement, ApsUniversityDocument, Mark } from "../../domain/aps/scheme.ts";
import { ENGLISH_NSC, requirement, testScheme } from "../support/aps-documents.ts";

const alternative = (group: string, subject_slug: string, min_percentage: number) =>
  requirement(subject_slug, min_percentage, { is_compulsory: false, alternative_group: group });

/** The near miss of one qualification for these marks and this score (the scheme's maximum is 50). */
function nearMiss(q: ApsQualification, marks: Mark[], score: number, maximum = 50, ruleSubjects: Record<string, string[]> = {}) {
  return nearMissOf(explainQualification(q, percentagesOf(marks), score, ruleSubjects), q.min_aps, maximum);
}
const qualification = (
  min_aps: number | null,
  requirements: ApsRequirement[] = [],
  general: ApsQualification["general_requirements"] = [],
): ApsQualification => ({
  id: "q",
  name: "Q",
  qualification_type: "higher-certificate",
  min_aps,
  requirements,
  general_requirements: general,
});

describe("near misses: the APS", () => {
  it("is a near miss at exactly 10% of the maximum short, and not one point more", () => {
    expect(NEAR_MISS_APS_SHARE).toBe(0.1);
    expect(nearMiss(qualification(35), [], 30)?.missing).toEqual([{ kind: "aps", need: 35, have: 30 }]);
    expect(nearMiss(qualification(36), [], 30)).toBeNull();
    // Maximum 42: 10% is 4.2, so 4 short is near and 5 short is not.
    expect(nearMiss(qualification(34), [], 30, 42)).not.toBeNull();
    expect(nearMiss(qualification(35), [], 30, 42)).toBeNull();
    // Maximum 600 (UCT): 60 points.
    expect(nearMiss(qualification(480), [], 420, 600)).not.toBeNull();
    expect(nearMiss(qualification(481), [], 420, 600)).toBeNull();
  });

  it("lists nothing for a qualification the learner meets, or one without a published minimum that the subjects meet", () => {
    expect(nearMiss(qualification(30), [], 30)).toBeNull();
    expect(nearMiss(qualification(null), [], 0)).toBeNull();
  });
});

describe("near misses: subjects", () => {
  const maths = [{ subject_slug: "mathematics", percentage: 55 }];

  it("is a near miss one level short, not two, and never for a subject the learner does not take", () => {
    expect(nearMiss(qualification(20, [requirement("mathematics", 60)]), maths, 30)?.missing).toEqual([
      { kind: "subject", subject_slug: "mathematics", need_level: 5, have_level: 4, need_percentage: 60, have_percentage: 55 },
    ]);
    expect(nearMiss(qualification(20, [requirement("mathematics", 70)]), maths, 30)).toBeNull();
    expect(nearMiss(qualification(20, [requirement("physical-sciences", 50)]), maths, 30)).toBeNull();
  });

  it("is a near miss when a percentage requirement is missed within the same level", () => {
    expect(nearMiss(qualification(20, [requirement("mathematics", 58)]), maths, 30)?.missing[0]).toMatchObject({
      kind: "subject",
      need_level: 4,
      have_level: 4,
    });
  });

  it("allows at most one unmet subject requirement", () => {
    const marks = [...maths, { subject_slug: "physical-sciences", percentage: 55 }];
    expect(nearMiss(qualification(20, [requirement("mathematics", 60), requirement("physical-sciences", 60)]), marks, 30)).toBeNull();
  });

  it("names the options of an alternative group that are one level short", () => {
    const q = qualification(20, [alternative("mathematics", "mathematics", 60), alternative("mathematics", "mathematical-literacy", 70)]);
    expect(nearMiss(q, maths, 30)?.missing).toEqual([
      {
        kind: "group",
        group: "mathematics",
        options: [{ subject_slug: "mathematics", need_level: 5, have_level: 4, need_percentage: 60, have_percentage: 55 }],
      },
    ]);
    expect(nearMiss(q, [{ subject_slug: "mathematical-literacy", percentage: 45 }], 30)).toBeNull();
  });

  it("names a general requirement (another language) one level short", () => {
    const languages = { "other-language": ["english-home-language", "isizulu-first-additional-language"] };
    const q = qualification(
      20,
      [requirement("english-home-language", 50)],
      [{ rule: "other-language", min_percentage: 50, alternative_group: null }],
    );
    const marks = [
      { subject_slug: "english-home-language", percentage: 70 },
      { subject_slug: "isizulu-first-additional-language", percentage: 45 },
    ];
    expect(nearMiss(q, marks, 30, 50, languages)?.missing).toEqual([
      {
        kind: "group",
        group: "@other-language",
        options: [{ subject_slug: "@other-language", need_level: 4, have_level: 3, need_percentage: 50, have_percentage: 45 }],
      },
    ]);
  });

  it("combines an APS shortfall with one subject one level short", () => {
    expect(nearMiss(qualification(33, [requirement("mathematics", 60)]), maths, 30)?.missing).toEqual([
      { kind: "aps", need: 33, have: 30 },
      { kind: "subject", subject_slug: "mathematics", need_level: 5, have_level: 4, need_percentage: 60, have_percentage: 55 },
    ]);
  });
});

const SUBJECTS = ["english-home-language", "mathematics", "physical-sciences", "life-sciences", "geography", "history", "accounting"];

function documentOf(slug: string, name: string, qualifications: ApsQualification[]): ApsUniversityDocument {
  return {
    university: { slug, name, short_name: name },
    scheme: testScheme(SUBJECTS, 6, { id: `${slug}-2027`, university_slug: slug, name: `${name} APS` }),
    qualifications,
    subjects: SUBJECTS.map((s) => ({ slug: s, name: s })),
    nsc: ENGLISH_NSC,
  };
}

// A learner at level 5 in six subjects: APS 30.
const MARKS = SUBJECTS.slice(0, 6).map((subject_slug) => ({ subject_slug, percentage: 65 }));
const q = (id: string, min_aps: number | null, requirements: ApsRequirement[] = []): ApsQualification => ({
  id,
  name: id,
  qualification_type: "higher-certificate",
  min_aps,
  requirements,
});
const DOCUMENTS = new Map<string, ApsUniversityDocument>([
  [
    "alpha",
    documentOf("alpha", "Alpha University", [
      q("a-open", 20),
      q("a-near-2", 32),
      q("a-near-4", 34),
      q("a-far", 40),
      q("a-maths", 28, [requirement("mathematics", 70)]),
    ]),
  ],
  ["beta", documentOf("beta", "Beta University", [q("b-open", 25)])],
]);
const INDEX: ApsIndex = {
  universities: [
    { slug: "alpha", name: "Alpha University" },
    { slug: "beta", name: "Beta University" },
  ],
  subjects: SUBJECTS,
};
const load = async (slug: string) => DOCUMENTS.get(slug) ?? null;

describe("the order of near misses", () => {
  const subject = (need: number, have: number) => ({
    kind: "subject" as const,
    subject_slug: "mathematics",
    need_level: 5,
    have_level: 4,
    need_percentage: need,
    have_percentage: have,
  });
  const miss = (name: string, id: string, missing: NearMiss["missing"]): NearMiss => ({ qualification_id: id, name, min_aps: 30, missing });

  it("fewer missing items first, then the smaller APS shortfall, the smaller percentage shortfall, the name and the id", () => {
    const two = miss("A two items", "1", [{ kind: "aps", need: 30, have: 29 }, subject(60, 59)]);
    const apsBy3 = miss("B", "2", [{ kind: "aps", need: 30, have: 27 }]);
    const apsBy1 = miss("C", "3", [{ kind: "aps", need: 30, have: 29 }]);
    const pctBy5 = miss("D", "4", [subject(60, 55)]);
    const pctBy1 = miss("E", "5", [subject(60, 59)]);
    const sameAsE = miss("E", "0", [subject(60, 59)]);
    const sameButLaterName = miss("F", "6", [subject(60, 59)]);
    const ordered = orderNearMisses([two, apsBy3, pctBy5, sameButLaterName, apsBy1, pctBy1, sameAsE]);
    expect(ordered.map((m) => `${m.name}/${m.qualification_id}`)).toEqual(["E/0", "E/5", "F/6", "D/4", "C/3", "B/2", "A two items/1"]);
  });
});

describe("programmes that share a requirement set", () => {
  it("share one outcome only when their requirements are the same: a group of one subject is not that subject", () => {
    const document = documentOf("gamma", "Gamma University", [
      q("single", 20, [requirement("mathematics", 70)]),
      q("group", 20, [alternative("mathematics", "mathematics", 70)]),
      q("single-again", 21, [requirement("mathematics", 70)]),
    ]);
    const result = apsResultOf(document, MARKS); // Mathematics 65: level 5, one short of 70's level 6
    const missing = new Map(result.near_misses.map((m) => [m.qualification_id, m.missing]));
    expect(missing.get("single")).toEqual([expect.objectContaining({ kind: "subject", subject_slug: "mathematics" })]);
    expect(missing.get("single-again")).toEqual(missing.get("single"));
    expect(missing.get("group")).toEqual([expect.objectContaining({ kind: "group", group: "mathematics" })]);
  });
});

describe("near misses in the calculator's answer", () => {
  it("orders near misses by how little is missing", () => {
    const result = apsResultOf(DOCUMENTS.get("alpha") as ApsUniversityDocument, MARKS);
    expect(result.aps_score).toBe(30);
    expect(result.qualifies_for).toEqual(["a-open"]);
    expect(result.qualifications).toEqual([{ id: "a-open", name: "a-open", min_aps: 20, aps_scheme: "alpha-2027" }]);
    expect(result.other_schemes).toEqual([]);
    // One missing item before two; among one-item misses the smaller APS shortfall first.
    expect(result.near_misses.map((m) => m.qualification_id)).toEqual(["a-maths", "a-near-2", "a-near-4"]);
  });
});

describe("compare", () => {
  it("answers every university in name order with the single calculator's figures", async () => {
    const answer = await answerCompareRequest({ marks: MARKS }, INDEX, load);
    expect(answer.status).toBe(200);
    if (answer.status !== 200) return;
    expect(answer.data.data.map((u) => u.university_slug)).toEqual(["alpha", "beta"]);
    for (const entry of answer.data.data) {
      const single = apsResultOf((await load(entry.university_slug)) as ApsUniversityDocument, MARKS);
      expect(entry).toEqual({
        university_slug: single.university_slug,
        university_name: DOCUMENTS.get(entry.university_slug)?.university.name,
        aps_score: single.aps_score,
        maximum: single.maximum,
        scheme: single.scheme,
        qualifies_for: single.qualifies_for,
        qualifications: single.qualifications,
        near_misses: single.near_misses,
        other_schemes: single.other_schemes,
        nsc: single.nsc,
      });
    }
    expect(answer.data.meta).toEqual({ universities: 2, qualifies_for_total: 2 });
  });

  it("answers only the universities named, still in name order", async () => {
    const answer = await answerCompareRequest({ marks: MARKS, university_slugs: ["beta", "alpha"] }, INDEX, load);
    expect(answer.status === 200 && answer.data.data.map((u) => u.university_slug)).toEqual(["alpha", "beta"]);
    const one = await answerCompareRequest({ marks: MARKS, university_slugs: ["beta"] }, INDEX, load);
    expect(one.status === 200 && one.data.meta).toEqual({ universities: 1, qualifies_for_total: 1 });
  });

  it.each([
    ["an empty list", { marks: MARKS, university_slugs: [] }, "university_slugs"],
    ["an unknown slug", { marks: MARKS, university_slugs: ["alpha", "atlantis"] }, "university_slugs[1]"],
    ["a repeated slug", { marks: MARKS, university_slugs: ["alpha", "alpha"] }, "university_slugs[1]"],
    ["a slug that is not a string", { marks: MARKS, university_slugs: [7] }, "university_slugs[0]"],
    ["not an array", { marks: MARKS, university_slugs: "alpha" }, "university_slugs"],
    ["no marks", { university_slugs: ["alpha"] }, "marks"],
    ["an unknown subject", { marks: [{ subject_slug: "astrology", percentage: 60 }] }, "marks[0].subject_slug"],
    ["a repeated subject", { marks: [MARKS[0], MARKS[0]] }, "marks[1].subject_slug"],
    ["a percentage out of range", { marks: [{ subject_slug: "mathematics", percentage: 101 }] }, "marks[0].percentage"],
    ["a field of the single calculator", { marks: MARKS, university_slug: "alpha" }, "university_slug"],
  ])("answers 422 for %s, naming %s", async (_, body, path) => {
    const answer = await answerCompareRequest(body, INDEX, load);
    expect(answer.status).toBe(422);
    if (answer.status === 422) {
      expect(answer.code).toBe("invalid_aps_request");
      expect(answer.details.map((d) => d.path)).toContain(path);
    }
  });

  it("answers 422 for a body that is not an object", async () => {
    for (const body of [null, [], "marks", 3]) expect((await answerCompareRequest(body, INDEX, load)).status).toBe(422);
  });
});

describe("programmes scored on another method of their university (scheme variants)", () => {
  it("judges SMU's health programmes on seven subjects with Life Orientation, its science programmes on six", async () => {
    const { loadApsSources } = await import("../fixtures/aps.ts");
    const document = (await loadApsSources()).documents.get("sefako-makgatho-health-sciences-university");
    if (!document) throw new Error("no SMU document");
    expect(document.variants?.map((v) => v.id)).toEqual(["smu-2027-seven"]);
    // Four main subjects at 5, Life Orientation at 4, two more at 4: SMU's own BPharm example, 32 on seven subjects.
    const marks = [
      { subject_slug: "english-home-language", percentage: 65 },
      { subject_slug: "mathematics", percentage: 65 },
      { subject_slug: "physical-sciences", percentage: 65 },
      { subject_slug: "life-sciences", percentage: 65 },
      { subject_slug: "life-orientation", percentage: 55 },
      { subject_slug: "geography", percentage: 55 },
      { subject_slug: "isizulu-first-additional-language", percentage: 55 },
    ];
    const result = apsResultOf(document, marks);
    expect(result.aps_score).toBe(28); // six subjects without Life Orientation
    expect(result.other_schemes).toEqual([expect.objectContaining({ id: "smu-2027-seven", aps_score: 32, maximum: 49 })]);
    const pharmacy = document.qualifications.find((q) => q.name === "Bachelor of Pharmacy");
    expect(pharmacy?.scheme).toBe("smu-2027-seven");
    expect(result.qualifications).toContainEqual(expect.objectContaining({ id: pharmacy?.id, aps_scheme: "smu-2027-seven" }));
  });
});

describe("CPUT's Method 2 and 3 programmes", () => {
  it("score Mathematics and Physical Sciences (Method 2) or Accounting (Method 3) double", async () => {
    const { loadApsSources } = await import("../fixtures/aps.ts");
    const { LEARNER_A_MARKS } = await import("../fixtures/learners.ts");
    const document = (await loadApsSources()).documents.get("cape-peninsula-university-of-technology");
    if (!document) throw new Error("no CPUT document");
    const result = apsResultOf(document, [...LEARNER_A_MARKS, { subject_slug: "accounting", percentage: 70 }]);
    const method = (id: string) => result.other_schemes.find((s) => s.id === id);
    // (2 x Mathematics 59.99 + 2 x Physical Sciences 60 + English 72 + next best Geography 81) / 10 = 39.298
    expect(method("cput-2027-method-2")).toMatchObject({ aps_score: 39, exact_score: 39.298, maximum: 60 });
    // (2 x 59.99 + 2 x Accounting 70 + English 72 + best three others Geography 81, AFAL 65, PS 60) / 10 = 53.798
    expect(method("cput-2027-method-3")).toMatchObject({ aps_score: 53, exact_score: 53.798, maximum: 80 });
    const civil = document.qualifications.find((q) => q.name === "Diploma in Civil Engineering");
    expect(civil?.scheme).toBe("cput-2027-method-2");
  });
});

describe("schemes where a programme's required subjects always count (UCT)", () => {
  it("scores a programme with its required subject counted even when it is not among the best", async () => {
    const { loadApsSources } = await import("../fixtures/aps.ts");
    const document = (await loadApsSources()).documents.get("university-of-cape-town");
    if (!document) throw new Error("no UCT document");
    expect(document.scheme.required_subjects_counted).toBe(true);
    const { computeAps } = await import("../../domain/aps/engine.ts");
    const marks = [
      { subject_slug: "english-home-language", percentage: 80 },
      { subject_slug: "mathematics", percentage: 80 },
      { subject_slug: "geography", percentage: 90 },
      { subject_slug: "history", percentage: 90 },
      { subject_slug: "life-sciences", percentage: 90 },
      { subject_slug: "accounting", percentage: 90 },
      { subject_slug: "physical-sciences", percentage: 50 },
    ];
    // Generally: English 80 + the best five others 90 + 90 + 90 + 90 + 80 = 520.
    expect(computeAps(document.scheme, marks).score).toBe(520);
    // Where Mathematics and Physical Sciences are required: 80 + 80 + 50 + the next best three 90 x 3 = 480.
    expect(computeAps(document.scheme, marks, new Set(["mathematics", "physical-sciences"])).score).toBe(480);
  });
});
