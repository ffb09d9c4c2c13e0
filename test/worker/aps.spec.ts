// POST /v1/data/aps-calculator through the real Worker and the real build (.test-dist/): the scope gate,
// SPEC.md's fields plus the breakdown, qualifies_for against the qualifications the API serves, and every
// 422 with its path.
import { describe, expect, it } from "vitest";
import { ApsResultSchema } from "../../domain/aps/schemas.ts";
import { ErrorBody } from "../../schema/api.ts";
import { call, json, token } from "./support.ts";
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";

const PATH = "/v1/data/aps-calculator";
const post = async (body: unknown, scopes = ["aps_calculator:use"]) =>
  call(PATH, { token: await token({ scopes }), method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const LEARNER = LEARNER_A_MARKS;

async function qualificationsOf(universitySlug: string): Promise<{ id: string; min_aps: number; university_slug: string }[]> {
  const all: { id: string; min_aps: number; university_slug: string }[] = [];
  const scoped = await token({ scopes: ["qualifications:read"] });
  for (let page = 1; ; page++) {
    const { data } = await json(await call(`/v1/data/qualifications?per_page=100&page=${page}`, { token: scoped }));
    if (data.length === 0) break;
    all.push(...data);
  }
  return all.filter((q) => q.university_slug === universitySlug);
}

describe("POST /v1/data/aps-calculator", () => {
  it("scores on the university's own scheme and lists qualifications it serves", async () => {
    const response = await post({ university_slug: "university-of-pretoria", marks: LEARNER });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { data } = await json(response);
    ApsResultSchema.parse(data);
    // UP: NSC levels of the best six without Life Orientation: Geo 7 + English 6 + AFAL 5 + PS 5 + Maths 4 + LS 3 = 30
    expect(data).toMatchObject({ aps_score: 30, university_slug: "university-of-pretoria", maximum: 42 });
    expect(data.scheme).toMatchObject({ id: "up-2026", method: "points", life_orientation: "excluded" });
    const lo = data.breakdown.find((b: { subject_slug: string }) => b.subject_slug === "life-orientation");
    expect(lo).toMatchObject({ counted: false });
    const served = await qualificationsOf("university-of-pretoria");
    const byId = new Map(served.map((q) => [q.id, q]));
    for (const id of data.qualifies_for) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(byId.get(id)?.min_aps).toBeLessThanOrEqual(30);
    }
  });

  it("qualifies more with better marks, and the order of the marks changes nothing", async () => {
    const strong = LEARNER.map((m) => ({ ...m, percentage: Math.min(100, m.percentage + 25) }));
    const a = (await json(await post({ university_slug: "university-of-cape-town", marks: strong }))).data;
    const b = (await json(await post({ university_slug: "university-of-cape-town", marks: [...strong].reverse() }))).data;
    expect(b).toEqual(a);
    const weak = (await json(await post({ university_slug: "university-of-cape-town", marks: LEARNER }))).data;
    expect(a.aps_score).toBeGreaterThan(weak.aps_score);
    expect(a.qualifies_for.length).toBeGreaterThanOrEqual(weak.qualifies_for.length);
    for (const id of weak.qualifies_for) expect(a.qualifies_for).toContain(id);
  });

  it("answers 401 without a token and 403 without the aps_calculator:use scope", async () => {
    const body = JSON.stringify({ university_slug: "university-of-pretoria", marks: LEARNER });
    expect((await call(PATH, { token: null, method: "POST", body, headers: { "content-type": "application/json" } })).status).toBe(401);
    const forbidden = await post({ university_slug: "university-of-pretoria", marks: LEARNER }, ["qualifications:read"]);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("www-authenticate")).toContain('scope="aps_calculator:use"');
  });

  it.each([
    ["an unknown university", { university_slug: "university-of-atlantis", marks: LEARNER }, "university_slug"],
    ["a slug that names a path", { university_slug: "../manifest", marks: LEARNER }, "university_slug"],
    ["no university", { marks: LEARNER }, "university_slug"],
    [
      "an unknown subject",
      { university_slug: "university-of-pretoria", marks: [{ subject_slug: "chemistry", percentage: 70 }] },
      "marks[0].subject_slug",
    ],
    [
      "a percentage over 100",
      { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics", percentage: 101 }] },
      "marks[0].percentage",
    ],
    [
      "a percentage as text",
      { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics", percentage: "70" }] },
      "marks[0].percentage",
    ],
    ["a missing percentage", { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics" }] }, "marks[0].percentage"],
    [
      "a repeated subject",
      {
        university_slug: "university-of-pretoria",
        marks: [
          { subject_slug: "mathematics", percentage: 70 },
          { subject_slug: "mathematics", percentage: 80 },
        ],
      },
      "marks[1].subject_slug",
    ],
    ["no marks", { university_slug: "university-of-pretoria", marks: [] }, "marks"],
    ["too many marks", { university_slug: "university-of-pretoria", marks: Array.from({ length: 21 }, () => LEARNER[0]) }, "marks"],
    ["a body that is not an object", [LEARNER], "body"],
  ])("answers 422 for %s, naming %s", async (_title, body, path) => {
    const response = await post(body);
    expect(response.status).toBe(422);
    const error = ErrorBody.parse(await json(response)).error;
    expect(error.code).toBe("invalid_aps_request");
    expect(error.details?.map((d) => d.path)).toContain(path);
  });
});
