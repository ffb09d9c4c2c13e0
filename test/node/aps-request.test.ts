// answerApsRequest: every way a body can be wrong gets a 422 with the exact path, all problems at once;
// a good body gets the SPEC.md fields plus the breakdown and the scheme.
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { ApsResultSchema, MAX_MARKS } from "../../domain/aps/schemas.ts";
import { answerApsRequest } from "../../domain/aps/request.ts";
import type { ApsResponse } from "../../domain/aps/validation.ts";
import type { ApsUniversityDocument } from "../../domain/aps/scheme.ts";
import { loadApsSources } from "../fixtures/aps.ts";
import { present } from "../support/present.ts";

let documents: Map<string, ApsUniversityDocument>;
const requested: string[] = [];
const load = async (slug: string) => {
  requested.push(slug);
  return documents.get(slug) ?? null;
};
beforeAll(async () => {
  documents = (await loadApsSources()).documents;
});

const UP = "university-of-pretoria";
const GOOD_MARKS = LEARNER_A_MARKS;

async function detailsOf(body: unknown) {
  const response = await answerApsRequest(body, load);
  expect(response.status).toBe(422);
  if (response.status !== 422) throw new Error("expected 422");
  expect(response.code).toBe("invalid_aps_request");
  expect(response.message.length).toBeGreaterThan(0);
  return response.details;
}
const pathsOf = async (body: unknown) => (await detailsOf(body)).map((d) => d.path);

describe("answerApsRequest: 422 cases", () => {
  it.each([
    ["null", null],
    ["an array", [1, 2]],
    ["a string", "university_slug=up"],
    ["a number", 42],
  ])("body that is %s", async (_what, body) => {
    expect(await detailsOf(body)).toEqual([{ path: "body", message: expect.stringContaining("JSON object") }]);
  });

  it("missing university_slug", async () => {
    expect(await pathsOf({ marks: GOOD_MARKS })).toEqual(["university_slug"]);
  });

  it("non-string university_slug", async () => {
    const details = await detailsOf({ university_slug: 7, marks: GOOD_MARKS });
    expect(details).toEqual([{ path: "university_slug", message: expect.stringContaining("must be a string") }]);
  });

  it("unknown university slug", async () => {
    const details = await detailsOf({ university_slug: "university-of-atlantis", marks: GOOD_MARKS });
    expect(details).toEqual([{ path: "university_slug", message: expect.stringContaining("not a known university") }]);
  });

  it("never hands a slug that is not slug-shaped to the loader", async () => {
    requested.length = 0;
    expect(await pathsOf({ university_slug: "../../manifest", marks: GOOD_MARKS })).toEqual(["university_slug"]);
    expect(await pathsOf({ university_slug: "University-Of-Pretoria", marks: GOOD_MARKS })).toEqual(["university_slug"]);
    expect(requested).toEqual([]);
  });

  it("missing marks", async () => {
    expect(await detailsOf({ university_slug: UP })).toEqual([{ path: "marks", message: expect.stringContaining("required") }]);
  });

  it.each([
    ["an object", { mathematics: 60 }],
    ["a string", "mathematics:60"],
    ["null", null],
  ])("marks that is %s", async (_what, marks) => {
    expect(await detailsOf({ university_slug: UP, marks })).toEqual([{ path: "marks", message: expect.stringContaining("must be an array") }]);
  });

  it("empty marks", async () => {
    expect(await detailsOf({ university_slug: UP, marks: [] })).toEqual([{ path: "marks", message: expect.stringContaining("at least one") }]);
  });

  it(`more than ${MAX_MARKS} marks`, async () => {
    const slugs = present(documents.get(UP), "UP's document")
      .subjects.map((s) => s.slug)
      .slice(0, MAX_MARKS + 1);
    const marks = slugs.map((subject_slug) => ({ subject_slug, percentage: 50 }));
    expect(await detailsOf({ university_slug: UP, marks })).toEqual([{ path: "marks", message: expect.stringContaining(`at most ${MAX_MARKS}`) }]);
    // Exactly the limit is fine.
    expect((await answerApsRequest({ university_slug: UP, marks: marks.slice(0, MAX_MARKS) }, load)).status).toBe(200);
  });

  it("a mark that is not an object", async () => {
    expect(await pathsOf({ university_slug: UP, marks: [GOOD_MARKS[0], "mathematics"] })).toEqual(["marks[1]"]);
  });

  it("a mark without subject_slug", async () => {
    expect(await pathsOf({ university_slug: UP, marks: [GOOD_MARKS[0], { percentage: 60 }] })).toEqual(["marks[1].subject_slug"]);
  });

  it("a non-string subject_slug", async () => {
    expect(await pathsOf({ university_slug: UP, marks: [{ subject_slug: 12, percentage: 60 }] })).toEqual(["marks[0].subject_slug"]);
  });

  it("an unknown subject slug", async () => {
    const details = await detailsOf({ university_slug: UP, marks: [GOOD_MARKS[0], { subject_slug: "astrology", percentage: 60 }] });
    expect(details).toEqual([{ path: "marks[1].subject_slug", message: expect.stringContaining("not a known subject") }]);
  });

  it("duplicate subjects", async () => {
    const details = await detailsOf({ university_slug: UP, marks: [...GOOD_MARKS, { subject_slug: "mathematics", percentage: 70 }] });
    expect(details).toEqual([{ path: "marks[7].subject_slug", message: expect.stringContaining("marks[2]") }]);
  });

  it("a missing percentage", async () => {
    expect(await pathsOf({ university_slug: UP, marks: [{ subject_slug: "mathematics" }] })).toEqual(["marks[0].percentage"]);
  });

  it.each([
    ["a string", "60"],
    ["null", null],
    ["a boolean", true],
    ["an object", { value: 60 }],
  ])("a percentage that is %s", async (_what, percentage) => {
    const details = await detailsOf({ university_slug: UP, marks: [{ subject_slug: "mathematics", percentage }] });
    expect(details).toEqual([{ path: "marks[0].percentage", message: expect.stringContaining("must be a number") }]);
  });

  it.each([-0.01, -5, 100.01, 1000])("a percentage of %d, outside 0-100", async (percentage) => {
    const details = await detailsOf({ university_slug: UP, marks: [{ subject_slug: "mathematics", percentage }] });
    expect(details).toEqual([{ path: "marks[0].percentage", message: expect.stringContaining("from 0 to 100") }]);
  });

  it("collects every problem, not just the first", async () => {
    const paths = await pathsOf({
      university_slug: "nowhere",
      marks: [{ subject_slug: "mathematics", percentage: 101 }, { subject_slug: "mathematics", percentage: "50" }, {}, 7],
    });
    expect(paths).toEqual([
      "university_slug",
      "marks[0].percentage",
      "marks[1].subject_slug",
      "marks[1].percentage",
      "marks[2].subject_slug",
      "marks[2].percentage",
      "marks[3]",
    ]);
  });

  it("reports the marks' problems along with a missing university", async () => {
    expect(await pathsOf({ marks: [{ subject_slug: "mathematics", percentage: -1 }] })).toEqual(["university_slug", "marks[0].percentage"]);
  });
});

describe("answerApsRequest: 200", () => {
  let response: ApsResponse;
  beforeAll(async () => {
    response = await answerApsRequest({ university_slug: UP, marks: GOOD_MARKS }, load);
  });

  it("scores on the university's scheme and keeps SPEC.md's fields", () => {
    expect(response.status).toBe(200);
    if (response.status !== 200) return;
    const data = ApsResultSchema.parse(response.data);
    // UP, learner A: 6 + 5 + 4 + 5 + 3 + 7 = 30 (see aps-engine.test.ts)
    expect(data.aps_score).toBe(30);
    expect(data.university_slug).toBe(UP);
    const ids = new Set(present(documents.get(UP), "UP's document").qualifications.map((q) => q.id));
    for (const id of data.qualifies_for) expect(ids.has(id)).toBe(true);
    expect(data.scheme).toMatchObject({ id: "up-2026", maximum: 42, method: "points", confidence: "high", intake_year: 2026 });
    expect(data.breakdown).toHaveLength(GOOD_MARKS.length);
    expect(data.breakdown.filter((b) => b.counted)).toHaveLength(6);
  });

  it("accepts boundary percentages 0 and 100, and extra fields in a mark", async () => {
    const result = await answerApsRequest(
      {
        university_slug: UP,
        marks: [
          { subject_slug: "mathematics", percentage: 0, note: "x" },
          { subject_slug: "geography", percentage: 100 },
        ],
      },
      load,
    );
    expect(result.status).toBe(200);
    if (result.status === 200) expect(result.data.aps_score).toBe(1 + 7);
  });

  it("refuses an unknown field of the body, as the comparison does, first and with the other problems", async () => {
    const marks = [{ subject_slug: "mathematics", percentage: 101 }];
    expect(await detailsOf({ university_slug: UP, marks: GOOD_MARKS, extra: true })).toEqual([
      { path: "extra", message: "is not a field of this request (university_slug, marks)" },
    ]);
    expect(await pathsOf({ marks, zz: 1, university_slug: 7, aa: 2 })).toEqual(["zz", "aa", "university_slug", "marks[0].percentage"]);
  });

  it("answers every university", async () => {
    for (const slug of documents.keys()) {
      const result = await answerApsRequest({ university_slug: slug, marks: GOOD_MARKS }, load);
      expect(result.status, slug).toBe(200);
      if (result.status === 200) ApsResultSchema.parse(result.data);
    }
  });
});
