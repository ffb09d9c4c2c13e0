// Coverage of the curated data, on the build's own model of the committed sources (plain Node: the same
// figures the build's coverage table prints). These are floors: a data edit that loses coverage fails here,
// with the gap named. The workerd suite checks the same totals through the API (test/worker/coverage.spec.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { assembleModel, defaultBuildOptions, type Assembly } from "../../build/index.ts";
import { currentIntake, hasOfficialWitness } from "../../build/coverage.ts";
import { todayInJohannesburg } from "../../lib/dates.ts";
import { ROOT } from "../../support/test-dataset.ts";
import { CATALOGUE_FLOORS, SHORT_LISTS } from "../support/catalogue-floors.ts";

let model: Extract<Assembly, { ok: true }>["model"];
beforeAll(async () => {
  const assembly = await assembleModel(defaultBuildOptions(ROOT));
  if (!assembly.ok) throw new Error(`the committed sources do not assemble: ${JSON.stringify(assembly.problems.slice(0, 3))}`);
  model = assembly.model;
});

describe("the programme catalogue", () => {
  it("holds at least 1,800 qualifications", () => {
    expect(model.qualifications.length).toBeGreaterThanOrEqual(CATALOGUE_FLOORS.total);
  });

  it("has at least 40 per university, except where the university's own list is shorter", () => {
    const per = new Map<string, number>();
    for (const q of model.qualifications) per.set(q.university_slug, (per.get(q.university_slug) ?? 0) + 1);
    expect(per.size).toBe(26);
    for (const [slug, count] of per) expect(count, slug).toBeGreaterThanOrEqual(SHORT_LISTS[slug] ?? CATALOGUE_FLOORS.perUniversity);
  });

  it("has subject requirements for at least 95%", () => {
    const withRequirements = model.qualifications.filter((q) => q.requirements.length + q.generalRequirements.length > 0).length;
    expect(withRequirements / model.qualifications.length).toBeGreaterThanOrEqual(CATALOGUE_FLOORS.withRequirements);
  });

  const intake = () => currentIntake(todayInJohannesburg(new Date("2026-11-24T12:00:00Z")));

  it("is on the current intake, or on the university's own document for the one before, for at least 90%", () => {
    const current = model.qualifications.filter((q) => q.intake_year >= intake() || hasOfficialWitness(q, intake())).length;
    expect(current / model.qualifications.length).toBeGreaterThanOrEqual(CATALOGUE_FLOORS.currentIntake);
  });

  it("rests on the universities' own documents or pages for the 2026 intake or later in at least 700 rows", () => {
    const official = model.qualifications.filter((q) => hasOfficialWitness(q, intake())).length;
    expect(official).toBeGreaterThanOrEqual(CATALOGUE_FLOORS.officialCurrent);
  });

  it("derives every qualification's confidence, with at least one witness each", () => {
    for (const q of model.qualifications) {
      expect(["high", "medium", "low"]).toContain(q.confidence);
      expect(q.sources.length, q.id).toBeGreaterThan(0);
    }
    const low = model.qualifications.filter((q) => q.confidence === "low").length;
    expect(low / model.qualifications.length).toBeLessThan(0.15);
  });
});

describe("the rest of the reference data", () => {
  it("26 universities, each with an application cycle that opens before it closes, and a prospectus", () => {
    expect(model.universities).toHaveLength(26);
    for (const u of model.universities) {
      expect(u.cycles.length, u.slug).toBeGreaterThan(0);
      for (const c of u.cycles) if (c.open_date) expect(c.open_date <= c.close_date).toBe(true);
      expect(u.prospectuses.length, u.slug).toBeGreaterThan(0);
    }
  });

  it("90+ NSC subjects", () => {
    expect(model.subjects.length).toBeGreaterThanOrEqual(90);
  });

  it("8,700+ high schools in all nine provinces, 20,000+ postal codes, 6,500+ schools with NSC results", () => {
    expect(model.highSchools.length).toBeGreaterThanOrEqual(8_700);
    expect(new Set(model.highSchools.map((h) => h.province.id)).size).toBe(9);
    expect(model.postalCodes.length).toBeGreaterThanOrEqual(20_000);
    expect(model.highSchools.filter((h) => h.nsc_results.length > 0).length).toBeGreaterThanOrEqual(6_500);
  });
});
