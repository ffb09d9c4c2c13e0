// What it would take (domain/aps/targets.ts): on hand-made documents, the answer is a change the calculator accepts
// and no smaller change (found by brute force over every whole percentage) exists; unreachable programmes say why;
// on the real build, every proposed change makes the learner qualify by the calculator's own answer.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { apsResultOf } from "../../domain/aps/request.ts";
import { judgeAlone } from "../../domain/aps/judging.ts";
import type { ApsQualification, ApsRequirement, ApsScheme, ApsUniversityDocument, Mark } from "../../domain/aps/scheme.ts";
import { answerTargetsRequest, targetOf } from "../../domain/aps/targets.ts";
import { prepareTestDataset, TEST_DIST } from "../../support/test-dataset.ts";
import { ENGLISH_NSC, requirement, testScheme } from "../support/aps-documents.ts";

const SUBJECTS = [
  "english-home-language",
  "mathematics",
  "physical-sciences",
  "life-sciences",
  "geography",
  "life-orientation",
  "mathematical-literacy",
];

const scheme = (overrides: Partial<ApsScheme> = {}): ApsScheme =>
  testScheme(
    SUBJECTS.filter((s) => s !== "life-orientation"),
    3,
    { id: "t-2027", university_slug: "t", name: "T APS", ...overrides },
  );
const documentOf = (qualifications: ApsQualification[], s = scheme()): ApsUniversityDocument => ({
  university: { slug: "t", name: "T University", short_name: "T" },
  scheme: s,
  qualifications,
  subjects: SUBJECTS.map((slug) => ({ slug, name: slug })),
  nsc: ENGLISH_NSC,
});
const hc = (id: string, min_aps: number | null, requirements: ApsRequirement[] = []): ApsQualification => ({
  id,
  name: id,
  qualification_type: "higher-certificate",
  min_aps,
  requirements,
});
const marksOf = (m: Record<string, number>): Mark[] => Object.entries(m).map(([subject_slug, percentage]) => ({ subject_slug, percentage }));

/** The smallest total raise (whole percentages, each mark up to 100) that qualifies, by trying every one. */
function bruteForce(document: ApsUniversityDocument, q: ApsQualification, marks: Mark[], cap: number): number | null {
  let best: number | null = null;
  const values = marks.map((m) => m.percentage);
  const visit = (i: number, spent: number) => {
    if (best !== null && spent >= best) return;
    if (i === marks.length) {
      if (
        judgeAlone(
          document,
          q,
          marks.map((m, j) => ({ ...m, percentage: values[j] as number })),
        ).qualifies
      )
        best = spent;
      return;
    }
    const from = marks[i]?.percentage as number;
    for (let v = from; v <= Math.min(100, from + cap); v++) {
      values[i] = v;
      visit(i + 1, spent + v - from);
    }
    values[i] = from;
  };
  visit(0, 0);
  return best;
}

const totalRaise = (changes: { from: number; to: number }[]) => changes.reduce((n, c) => n + c.to - c.from, 0);

describe("targets on hand-made documents", () => {
  it("says a learner who qualifies already does, and a learner short of one requirement what to raise", () => {
    const q = hc("maths", 12, [requirement("mathematics", 60)]);
    const document = documentOf([q]);
    expect(targetOf(document, q, marksOf({ "english-home-language": 70, mathematics: 65, geography: 70 }))).toMatchObject({
      qualifies_now: true,
      reachable: true,
      changes: [],
    });
    expect(targetOf(document, q, marksOf({ "english-home-language": 70, mathematics: 55, geography: 70 }))).toMatchObject({
      qualifies_now: false,
      reachable: true,
      changes: [{ subject_slug: "mathematics", from: 55, to: 60 }],
      reason: "Raise mathematics from 55% to 60%.",
    });
  });

  it("says why no raise can do it: a subject not taken (Mathematical Literacy for Mathematics), an APS out of reach", () => {
    const q = hc("maths", null, [requirement("mathematics", 50)]);
    const answer = targetOf(documentOf([q]), q, marksOf({ "english-home-language": 70, "mathematical-literacy": 90 }));
    expect(answer).toMatchObject({ reachable: false, changes: [] });
    expect(answer.reason).toContain("it needs mathematics at 50%, which is not among your subjects");
    const far = hc("far", 30);
    expect(targetOf(documentOf([far]), far, marksOf({ "english-home-language": 50, geography: 50 })).reason).toContain(
      "even 100% in every subject you gave scores 14, below the minimum of 30",
    );
  });

  it("raises the pass level too: a diploma needs four subjects other than Life Orientation at 40%", () => {
    const q: ApsQualification = { ...hc("dip", null), qualification_type: "diploma" };
    const marks = marksOf({ "english-home-language": 45, mathematics: 45, "physical-sciences": 45, geography: 38, "life-orientation": 90 });
    expect(targetOf(documentOf([q]), q, marks)).toMatchObject({ reachable: true, changes: [{ subject_slug: "geography", from: 38, to: 40 }] });
  });

  it("finds no larger change than brute force on small cases (band scheme and a sum of percentages)", () => {
    const cases = fc.record({
      english: fc.integer({ min: 40, max: 90 }),
      maths: fc.integer({ min: 30, max: 90 }),
      geography: fc.integer({ min: 30, max: 90 }),
      minAps: fc.integer({ min: 9, max: 18 }),
      mathsMin: fc.constantFrom(0, 50, 60, 70),
      linear: fc.boolean(),
    });
    fc.assert(
      fc.property(cases, (c) => {
        const s = c.linear
          ? scheme({
              method: "percentage-sum",
              maximum: 300,
              scales: [{ class: null, subjects: null, scale: "pct", bands: [{ from: 0, to: 100, points: null, points_per_percent: 1 }] }],
            })
          : scheme();
        const minAps = c.linear ? c.minAps * 12 : c.minAps;
        const q = hc("q", minAps, c.mathsMin > 0 ? [requirement("mathematics", c.mathsMin)] : []);
        const document = documentOf([q], s);
        const marks = marksOf({ "english-home-language": c.english, mathematics: c.maths, geography: c.geography });
        const answer = targetOf(document, q, marks);
        const brute = bruteForce(document, q, marks, c.linear ? 100 : 60);
        if (brute === null) {
          expect(answer.reachable).toBe(false);
          return;
        }
        expect(answer.reachable).toBe(true);
        expect(totalRaise(answer.changes), JSON.stringify({ c, answer })).toBe(brute);
        const raised = marks.map((m) => ({ ...m, percentage: answer.changes.find((x) => x.subject_slug === m.subject_slug)?.to ?? m.percentage }));
        expect(apsResultOf(document, raised).qualifies_for).toContain("q");
      }),
      { numRuns: runs(40) },
    );
  });
});

describe("the request", () => {
  const q = hc("3f1c9a8e-0000-4000-8000-000000000001", 10);
  const document = documentOf([q]);
  const load = async (slug: string) => (slug === "t" ? document : null);
  const owner = async (id: string) => (id === q.id ? "t" : null);
  const marks = marksOf({ "english-home-language": 60 });

  it("takes a qualification id or a university slug, not both, nothing else", async () => {
    expect((await answerTargetsRequest({ marks, qualification_id: q.id }, load, owner)).status).toBe(200);
    expect((await answerTargetsRequest({ marks, university_slug: "t" }, load, owner)).status).toBe(200);
    for (const [body, path] of [
      [{ marks }, "qualification_id"],
      [{ marks, qualification_id: q.id, university_slug: "t" }, "university_slug"],
      [{ marks, qualification_id: "not-a-uuid" }, "qualification_id"],
      [{ marks, qualification_id: "3f1c9a8e-0000-4000-8000-000000000002" }, "qualification_id"],
      [{ marks, university_slug: "atlantis" }, "university_slug"],
      [{ marks: [], university_slug: "t" }, "marks"],
      [{ marks, university_slug: "t", mark: 1 }, "mark"],
    ] as const) {
      const answer = await answerTargetsRequest(body, load, owner);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      if (answer.status === 422) expect(answer.details.map((d) => d.path)).toContain(path);
    }
  });
});

describe("targets on the built documents (.test-dist/_internal/aps)", () => {
  let documents: ApsUniversityDocument[] = [];
  beforeAll(async () => {
    await prepareTestDataset();
    const dir = path.join(TEST_DIST, "_internal", "aps");
    documents = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f !== "index.json")
          .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as ApsUniversityDocument)
      : [];
  }, 600_000);

  it("proposes only changes that make the learner qualify by the calculator's own answer", () => {
    const subjects = [
      "english-home-language",
      "isizulu-first-additional-language",
      "mathematics",
      "physical-sciences",
      "life-sciences",
      "geography",
      "life-orientation",
    ];
    const learner = fc.tuple(...subjects.map(() => fc.integer({ min: 30, max: 85 })));
    fc.assert(
      fc.property(learner, fc.integer({ min: 0, max: 1_000 }), (values, pick) => {
        const document = documents[pick % documents.length] as ApsUniversityDocument;
        const marks = subjects.map((subject_slug, i) => ({ subject_slug, percentage: values[i] as number }));
        for (const q of document.qualifications.filter((_, i) => i % 7 === pick % 7)) {
          const answer = targetOf(document, q, marks);
          if (!answer.reachable || answer.qualifies_now) continue;
          const raised = marks.map((m) => ({ ...m, percentage: answer.changes.find((c) => c.subject_slug === m.subject_slug)?.to ?? m.percentage }));
          expect(apsResultOf(document, raised).qualifies_for, `${document.university.slug} ${q.name}`).toContain(q.id);
        }
      }),
      { numRuns: runs(15) },
    );
  });
});
