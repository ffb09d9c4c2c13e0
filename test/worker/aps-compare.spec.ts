// POST /v1/data/aps-calculator/compare through the real Worker and the real build: it agrees with the single
// calculator at every university for any marks (property-based), answers in university-name order, gates on
// the same scope, and answers 422 naming the bad field.
import fc from "fast-check";
import { runs } from "./properties.ts";
import { describe, expect, it } from "vitest";
import { CompareResultSchema, CompareSummarySchema, SUMMARY_NEAR_MISSES } from "../../domain/aps/schemas.ts";
import { ErrorBody } from "../../schema/api.ts";
import { SEVEN_SUBJECTS } from "../../support/learners.ts";
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
    // 162 requests: seconds when the machine is busy.
  }, 60_000);

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
    [{ marks: LEARNER_A_MARKS, view: "compact" }, "view"],
    [{ marks: LEARNER_A_MARKS, view: ["summary"] }, "view"],
  ])("answers 422 naming the problem (%#)", async (body, path) => {
    const response = await post("/v1/data/aps-calculator/compare", body);
    expect(response.status).toBe(422);
    const error = ErrorBody.parse(await json(response)).error;
    expect(error.code).toBe("invalid_aps_request");
    expect(error.details?.map((d) => d.path)).toContain(path);
  });
});

describe("POST /v1/data/aps-calculator/compare with view: summary (issue 31, 4)", () => {
  const compare = async (body: Record<string, unknown>) => {
    const response = await post("/v1/data/aps-calculator/compare", body);
    expect(response.status).toBe(200);
    return { text: await response.text(), body };
  };

  it("answers the README's seven-mark learner in at most 100 KB of JSON, the full view in about 350 KB", async () => {
    const summary = await compare({ marks: SEVEN_SUBJECTS, view: "summary" });
    const full = await compare({ marks: SEVEN_SUBJECTS });
    expect(new TextEncoder().encode(summary.text).length).toBeLessThanOrEqual(100_000);
    expect(new TextEncoder().encode(full.text).length).toBeGreaterThan(300_000);
    const parsed = CompareSummarySchema.parse(JSON.parse(summary.text));
    expect(parsed.meta.view).toBe("summary");
    expect(parsed.data).toHaveLength(26);
  });

  it("keeps the default answer as it was: the full view, with or without view: full", async () => {
    const plain = await compare({ marks: SEVEN_SUBJECTS });
    const full = await compare({ marks: SEVEN_SUBJECTS, view: "full" });
    expect(full.text).toBe(plain.text);
    const parsed = CompareResultSchema.parse(JSON.parse(plain.text));
    expect(parsed.meta).not.toHaveProperty("view");
  });

  it("drops nothing that cannot be had elsewhere: names and minimums from the qualification records, the rest from the full view", async () => {
    const summary = CompareSummarySchema.parse(JSON.parse((await compare({ marks: SEVEN_SUBJECTS, view: "summary" })).text));
    const full = CompareResultSchema.parse(JSON.parse((await compare({ marks: SEVEN_SUBJECTS })).text));
    expect(summary.meta).toEqual({ ...full.meta, view: "summary" });
    const listToken = await token({ scopes: ["qualifications:read"] });
    for (const [i, u] of summary.data.entries()) {
      const whole = full.data[i];
      if (!whole) throw new Error(`no full entry for ${u.university_slug}`);
      // What depends on the marks is the full view's, cut.
      expect(u).toEqual({
        university_slug: whole.university_slug,
        university_name: whole.university_name,
        aps_score: whole.aps_score,
        maximum: whole.maximum,
        aps_scheme: whole.scheme.id,
        qualifies_for: whole.qualifies_for,
        near_misses: whole.near_misses.slice(0, SUMMARY_NEAR_MISSES),
        near_misses_total: whole.near_misses.length,
        other_schemes: whole.other_schemes,
        nsc: { pass: whole.nsc.pass, complete: whole.nsc.complete, reason: whole.nsc.reason },
      });
      // The names and minimums of what it qualifies for: the university's qualification records, as listed.
      const records = new Map<string, { id: string; name: string; min_aps: number | null; aps_scheme: string }>();
      for (let page = 1; ; page++) {
        const list = await json(
          await call(`/v1/data/qualifications?university_slug=${u.university_slug}&per_page=100&page=${page}`, { token: listToken }),
        );
        for (const q of list.data) records.set(q.id, { id: q.id, name: q.name, min_aps: q.min_aps, aps_scheme: q.aps_scheme });
        if (page * 100 >= list.meta.total) break;
      }
      expect(u.qualifies_for.map((id) => records.get(id))).toEqual(whole.qualifications);
    }
    // The near misses past the closest five, and the scheme and the pass's conditions: the full view of one university.
    const many = summary.data.find((u) => u.near_misses_total > SUMMARY_NEAR_MISSES);
    if (!many) throw new Error("no university with more near misses than the summary shows");
    const one = CompareResultSchema.parse(JSON.parse((await compare({ marks: SEVEN_SUBJECTS, university_slugs: [many.university_slug] })).text))
      .data[0];
    expect(one).toEqual(full.data.find((u) => u.university_slug === many.university_slug));
    expect(one?.near_misses).toHaveLength(many.near_misses_total);
  });
}, 60_000);
