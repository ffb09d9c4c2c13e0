// POST /v1/data/aps-calculator/compare through the real Worker and the real build: it agrees with the single
// calculator at every university for any marks (property-based), answers in university-name order, gates on
// the same scope, and answers 422 naming the bad field.
import fc from "fast-check";
import { runs } from "./properties.ts";
import { describe, expect, it } from "vitest";
import { CompareResultSchema } from "../../domain/aps/schemas.ts";
import { ErrorBody } from "../../schema/api.ts";
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";
import { call, json, token } from "./support.ts";

const post = async (path: string, body: unknown, scopes = ["aps_calculator:use"]) =>
  call(path, { token: await token({ scopes }), method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("POST /v1/data/aps-calculator/compare", () => {
  it("answers every university, in name order, with meta", async () => {
    const response = await post("/v1/data/aps-calculator/compare", { marks: LEARNER_A_MARKS });
    expect(response.status).toBe(200);
    const body = CompareResultSchema.parse(await json(response));
    const universities = (await json(await call("/v1/data/universities?per_page=100"))).data;
    expect(body.data.map((u) => u.university_slug)).toEqual(universities.map((u: { slug: string }) => u.slug));
    expect(body.meta).toEqual({ universities: 26, qualifies_for_total: body.data.reduce((n, u) => n + u.qualifies_for.length, 0) });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("agrees with 26 single calls for the same marks (property-based)", async () => {
    const subjects: string[] = (await json(await call("/v1/data/subjects"))).data.map((s: { slug: string }) => s.slug);
    const marks = fc.uniqueArray(fc.record({ subject_slug: fc.constantFrom(...subjects), percentage: fc.integer({ min: 0, max: 100 }) }), {
      minLength: 4,
      maxLength: 9,
      selector: (m) => m.subject_slug,
    });
    await fc.assert(
      fc.asyncProperty(marks, async (m) => {
        const compared = CompareResultSchema.parse(await json(await post("/v1/data/aps-calculator/compare", { marks: m })));
        for (const entry of compared.data) {
          const single = (await json(await post("/v1/data/aps-calculator", { university_slug: entry.university_slug, marks: m }))).data;
          expect(entry).toEqual({
            university_slug: single.university_slug,
            university_name: entry.university_name,
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
      }),
      { numRuns: runs(6), endOnFailure: true },
    );
  });

  it("lists the qualifications with names beside qualifies_for, and near misses in both calculators", async () => {
    const single = (await json(await post("/v1/data/aps-calculator", { university_slug: "university-of-johannesburg", marks: LEARNER_A_MARKS })))
      .data;
    expect(single.qualifications.map((q: { id: string }) => q.id)).toEqual(single.qualifies_for);
    expect(Array.isArray(single.near_misses)).toBe(true);
    for (const miss of single.near_misses) expect(single.qualifies_for).not.toContain(miss.qualification_id);
  });

  it("needs the aps_calculator:use scope", async () => {
    const response = await post("/v1/data/aps-calculator/compare", { marks: LEARNER_A_MARKS }, ["universities:read"]);
    expect(response.status).toBe(403);
  });

  it.each([
    [{ marks: LEARNER_A_MARKS, university_slugs: [] }, "university_slugs"],
    [{ marks: LEARNER_A_MARKS, university_slugs: ["university-of-atlantis"] }, "university_slugs[0]"],
    [{ marks: LEARNER_A_MARKS, university_slugs: ["university-of-pretoria", "university-of-pretoria"] }, "university_slugs[1]"],
    [{ marks: [{ subject_slug: "mathematics", percentage: 120 }] }, "marks[0].percentage"],
    [{ marks: [] }, "marks"],
  ])("answers 422 naming the problem (%#)", async (body, path) => {
    const response = await post("/v1/data/aps-calculator/compare", body);
    expect(response.status).toBe(422);
    const error = ErrorBody.parse(await json(response)).error;
    expect(error.code).toBe("invalid_aps_request");
    expect(error.details?.map((d) => d.path)).toContain(path);
  });
});
