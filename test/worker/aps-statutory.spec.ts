// The statutory minimum and what it would take (issue 25), through the real Worker and the real build: a learner
// without an NSC qualifies for nothing anywhere and is told why; no bachelor-type programme is offered without a
// bachelor's pass (property-based); SU's "Mathematics 70%, or 60% with Accounting 70%" is met either way; targets'
// changes, applied, make the learner qualify by the calculator's own answer.
import fc from "fast-check";
import { runs } from "./properties.ts";
import { describe, expect, it } from "vitest";
import { ApsResultSchema, CompareResultSchema } from "../../domain/aps/schemas.ts";
import { TargetsResultSchema } from "../../domain/aps/targets.ts";
import { ErrorBody } from "../../schema/api.ts";
import { call, json, token } from "./support.ts";

const post = async (path: string, body: unknown, scopes = ["aps_calculator:use"]) =>
  call(path, { token: await token({ scopes }), method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const marksOf = (m: Record<string, number>) => Object.entries(m).map(([subject_slug, percentage]) => ({ subject_slug, percentage }));

const BACHELOR_TYPES = new Set(["bachelor", "extended-bachelor"]);

/** Every qualification's type, from the public list. */
async function typesById(): Promise<Map<string, string>> {
  const scoped = await token({ scopes: ["qualifications:read"] });
  const types = new Map<string, string>();
  for (let page = 1; ; page++) {
    const { data } = await json(await call(`/v1/data/qualifications?per_page=100&page=${page}`, { token: scoped }));
    if (data.length === 0) return types;
    for (const q of data as { id: string; qualification_type: string }[]) types.set(q.id, q.qualification_type);
  }
}

describe("the statutory minimum through the API", () => {
  it("refuses a learner without an NSC at all 26 universities, and each says why", async () => {
    // 35% English Home Language (the NSC needs 40%), 25% in the second language, 75% in four others.
    const marks = marksOf({
      "english-home-language": 35,
      "isizulu-first-additional-language": 25,
      mathematics: 75,
      "physical-sciences": 75,
      "life-sciences": 75,
      geography: 75,
      "life-orientation": 75,
    });
    const body = CompareResultSchema.parse(await json(await post("/v1/data/aps-calculator/compare", { marks })));
    expect(body.data).toHaveLength(26);
    expect(body.meta.qualifies_for_total).toBe(0);
    for (const u of body.data) {
      expect(u.qualifies_for, u.university_slug).toEqual([]);
      expect(u.near_misses, u.university_slug).toEqual([]);
      expect(u.nsc.pass).toBe("none");
      expect(u.nsc.reason).toContain("The NSC needs 40% in a Home Language; you have 35%.");
      expect(u.nsc.conditions.find((c) => c.rule === "nsc-home-language")).toMatchObject({ met: false, need: 40, have: 35 });
    }
  });

  it("offers no bachelor-type programme without a bachelor's pass (property-based over random marks)", async () => {
    const types = await typesById();
    const subjects = [
      "english-home-language",
      "english-first-additional-language",
      "afrikaans-home-language",
      "afrikaans-first-additional-language",
      "isizulu-first-additional-language",
      "mathematics",
      "mathematical-literacy",
      "physical-sciences",
      "life-sciences",
      "geography",
      "history",
      "accounting",
      "business-studies",
      "life-orientation",
    ];
    const marks = fc.uniqueArray(fc.record({ subject_slug: fc.constantFrom(...subjects), percentage: fc.integer({ min: 20, max: 95 }) }), {
      minLength: 5,
      maxLength: 8,
      selector: (m) => m.subject_slug,
    });
    await fc.assert(
      fc.asyncProperty(marks, async (m) => {
        const body = CompareResultSchema.parse(await json(await post("/v1/data/aps-calculator/compare", { marks: m })));
        for (const u of body.data) {
          const bachelors = u.qualifies_for.filter((id) => BACHELOR_TYPES.has(types.get(id) ?? ""));
          if (u.nsc.pass !== "bachelor") expect(bachelors, `${u.university_slug} with a ${u.nsc.pass} pass`).toEqual([]);
          if (u.nsc.pass === "none") expect(u.qualifies_for).toEqual([]);
        }
      }),
      { numRuns: runs(8), endOnFailure: true },
    );
  });

  it("meets SU's 'Mathematics 70%, or 60% with Accounting 70%' on the first route: BAcc and BAccLLB", async () => {
    const marks = marksOf({
      "english-home-language": 90,
      "afrikaans-first-additional-language": 85,
      mathematics: 90,
      "physical-sciences": 85,
      "life-sciences": 85,
      geography: 85,
      "life-orientation": 80,
    });
    const single = ApsResultSchema.parse(
      (await json(await post("/v1/data/aps-calculator", { university_slug: "stellenbosch-university", marks }))).data,
    );
    const names = single.qualifications.map((q) => q.name);
    expect(single.nsc.pass).toBe("bachelor");
    expect(names).toContain("Bachelor of Accounting");
    expect(names).toContain("Bachelor of Accounting and Bachelor of Laws");
  });
});

describe("POST /v1/data/aps-calculator/targets", () => {
  const learner = marksOf({
    "english-home-language": 58,
    "isizulu-first-additional-language": 62,
    mathematics: 47,
    "physical-sciences": 44,
    "life-sciences": 55,
    geography: 61,
    "life-orientation": 70,
  });

  it("answers every programme of a university, and its changes make the learner qualify by the calculator", async () => {
    const response = await post("/v1/data/aps-calculator/targets", { marks: learner, university_slug: "university-of-limpopo" });
    expect(response.status).toBe(200);
    const body = TargetsResultSchema.parse(await json(response));
    expect(body.data.length).toBeGreaterThan(40);
    for (const t of body.data.filter((x) => x.reachable && !x.qualifies_now).slice(0, 12)) {
      const raised = learner.map((m) => ({ ...m, percentage: t.changes.find((c) => c.subject_slug === m.subject_slug)?.to ?? m.percentage }));
      const after = ApsResultSchema.parse(
        (await json(await post("/v1/data/aps-calculator", { university_slug: "university-of-limpopo", marks: raised }))).data,
      );
      expect(after.qualifies_for, t.name).toContain(t.qualification_id);
    }
  });

  it("answers one programme by its id, and 422 naming the field for a bad request", async () => {
    const scoped = await token({ scopes: ["qualifications:read"] });
    const q = (await json(await call("/v1/data/qualifications?university_slug=university-of-pretoria&per_page=1", { token: scoped }))).data[0];
    const one = TargetsResultSchema.parse(await json(await post("/v1/data/aps-calculator/targets", { marks: learner, qualification_id: q.id })));
    expect(one.data.map((t) => t.qualification_id)).toEqual([q.id]);
    for (const [body, path] of [
      [{ marks: learner }, "qualification_id"],
      [{ marks: learner, qualification_id: q.id, university_slug: "university-of-pretoria" }, "university_slug"],
      [{ marks: learner, qualification_id: "00000000-0000-4000-8000-000000000000" }, "qualification_id"],
      [{ marks: learner, university_slug: "university-of-pretoria", extra: 1 }, "extra"],
    ] as const) {
      const response = await post("/v1/data/aps-calculator/targets", body);
      expect(response.status).toBe(422);
      const error = ErrorBody.parse(await json(response)).error;
      expect(error.code).toBe("invalid_aps_request");
      expect(error.details?.map((d) => d.path)).toContain(path);
    }
    expect((await post("/v1/data/aps-calculator/targets", { marks: learner, qualification_id: q.id }, ["universities:read"])).status).toBe(403);
  });
});
