// The comparison judges from the prepared forms the build wrote (.test-dist/_internal/aps-compare.json: every
// university's PreparedForm, domain/aps/judging.ts), not from the documents (issue 30, 6). The forms must judge
// exactly as the documents do: same bytes, for any learner, on the real build. (That judging a document equals
// judging each programme on its own, by brute force, is test/node/aps-qualifies.test.ts; together the two tie the
// build's forms to the rules.)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerCompareRequest } from "../../domain/aps/compare.ts";
import { type PreparedForm, preparedFormOf } from "../../domain/aps/judging.ts";
import { apsResultOf } from "../../domain/aps/request.ts";
import type { ApsUniversityDocument, Mark } from "../../domain/aps/scheme.ts";
import type { ApsIndex } from "../../domain/aps/validation.ts";
import { prepareTestDataset, TEST_DIST } from "../../support/test-dataset.ts";

await prepareTestDataset();
const INTERNAL = path.join(TEST_DIST, "_internal");
const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const index = readJson<ApsIndex>(path.join(INTERNAL, "aps-index.json"));
const formsText = readFileSync(path.join(INTERNAL, "aps-compare.json"), "utf8");
const forms = JSON.parse(formsText) as Record<string, PreparedForm>;
const documents = new Map(
  readdirSync(path.join(INTERNAL, "aps"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => readJson<ApsUniversityDocument>(path.join(INTERNAL, "aps", f)))
    .map((d) => [d.university.slug, d] as const),
);

const fromForms = (table: Record<string, PreparedForm>) => async (slug: string) => table[slug] ?? null;
const fromDocuments = async (slug: string) => documents.get(slug) ?? null;

// The subjects requirements name most, so learners meet and miss real requirements (and sometimes tie).
const SUBJECTS = [
  "english-home-language",
  "english-first-additional-language",
  "afrikaans-home-language",
  "afrikaans-first-additional-language",
  "isizulu-home-language",
  "mathematics",
  "mathematical-literacy",
  "physical-sciences",
  "life-sciences",
  "geography",
  "history",
  "accounting",
  "business-studies",
  "economics",
  "information-technology",
  "engineering-graphics-and-design",
  "life-orientation",
].filter((slug) => index.subjects.includes(slug));

const percentage = fc.oneof(
  { arbitrary: fc.constantFrom(30, 40, 50, 60, 70, 80), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 100 }), weight: 2 },
  { arbitrary: fc.double({ min: 0, max: 100, noNaN: true }).map((p) => Math.round(p * 100) / 100), weight: 1 },
);
const learners = fc
  .uniqueArray(fc.constantFrom(...SUBJECTS), { minLength: 4, maxLength: 10 })
  .chain((slugs) => fc.tuple(...slugs.map((slug) => percentage.map((p): Mark => ({ subject_slug: slug, percentage: p })))))
  .map((marks) => [...marks]);

describe("the build's prepared forms (_internal/aps-compare.json)", () => {
  it("hold one form per university of the index, each the form of its document", () => {
    expect(Object.keys(forms).sort()).toEqual(index.universities.map((u) => u.slug).sort());
    for (const [slug, document] of documents) expect(forms[slug]).toEqual(JSON.parse(JSON.stringify(preparedFormOf(document))));
  });

  it("are smaller than the documents they replace on the compare's path", () => {
    const documentBytes = [...documents.values()].reduce((n, d) => n + JSON.stringify(d).length, 0);
    expect(formsText.length).toBeLessThan(documentBytes / 2);
  });

  it("judge exactly as the documents do, byte for byte, for any learner (seeded, property-based)", async () => {
    await fc.assert(
      fc.asyncProperty(learners, async (marks) => {
        const prepared = await answerCompareRequest({ marks }, index, fromForms(forms));
        const unprepared = await answerCompareRequest({ marks }, index, fromDocuments);
        expect(prepared.status).toBe(200);
        expect(JSON.stringify(prepared)).toBe(JSON.stringify(unprepared));
      }),
      { seed: 20261127, numRuns: 150 },
    );
  });

  it("judge each university as its single calculator does", async () => {
    await fc.assert(
      fc.asyncProperty(learners, async (marks) => {
        const prepared = await answerCompareRequest({ marks }, index, fromForms(forms));
        if (prepared.status !== 200) throw new Error(JSON.stringify(prepared));
        for (const entry of prepared.data.data) {
          if (!("qualifications" in entry)) throw new Error("the full view was asked for");
          const single = apsResultOf(documents.get(entry.university_slug) as ApsUniversityDocument, marks);
          expect(entry.qualifies_for).toEqual(single.qualifies_for);
          expect(entry.qualifications).toEqual(single.qualifications);
          expect(entry.near_misses).toEqual(single.near_misses);
          expect(entry.nsc).toEqual(single.nsc);
        }
      }),
      { seed: 20261128, numRuns: 15 },
    );
  });

  it("would notice a wrong form: one set's minimum raised changes the answer", async () => {
    // Everything at 95%: most programmes qualify. Raise every minimum of the set of the first programme that qualifies
    // (one route, at least one requirement) to 100, and the comparison from that form must drop it.
    const marks = SUBJECTS.map((subject_slug) => ({ subject_slug, percentage: 95 }));
    const answer = await answerCompareRequest({ marks }, index, fromForms(forms));
    if (answer.status !== 200) throw new Error(JSON.stringify(answer));
    const university = answer.data.data.find((u) => u.qualifies_for.length > 0 && forms[u.university_slug]?.sets.some((s) => s.clauses.length > 0));
    if (!university) throw new Error("no university with a programme qualifying at 95%");
    const form = structuredClone(forms[university.university_slug]) as PreparedForm;
    const entry = form.entries.find((e) => e.length === 7 && university.qualifies_for.includes(e[0]) && (form.sets[e[6]]?.clauses.length ?? 0) > 0);
    if (!entry) throw new Error("no qualifying programme with a requirement");
    // Each clause: its group, its number of options n, then n pairs of label and minimum.
    const { clauses } = form.sets[entry[6]] as PreparedForm["sets"][number];
    for (let i = 0; i < clauses.length; i += 2 + 2 * (clauses[i + 1] as number)) {
      for (let o = i + 3; o < i + 2 + 2 * (clauses[i + 1] as number); o += 2) clauses[o] = 100;
    }
    const wrong = await answerCompareRequest(
      { marks, university_slugs: [university.university_slug] },
      index,
      fromForms({ ...forms, [university.university_slug]: form }),
    );
    if (wrong.status !== 200) throw new Error(JSON.stringify(wrong));
    expect(wrong.data.data[0]?.qualifies_for).not.toContain(entry[0]);
  });
});
