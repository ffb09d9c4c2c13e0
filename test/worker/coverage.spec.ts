// Coverage of the curated data, as a client sees it through the API (issue: real reference data). These
// are floors: a data edit that loses coverage fails here, with the gap named.
import { describe, expect, it } from "vitest";
import { BASE, callHandler, json, token } from "./support.ts";

// Thousands of requests: the handler is called directly (support.ts says why), with the real environment.
async function call(path: string, init: { token?: string } = {}): Promise<Response> {
  return callHandler(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${init.token ?? (await token())}` } }));
}

async function everyPage(path: string, scope: string): Promise<any[]> {
  const scoped = await token({ scopes: [scope] });
  const all: any[] = [];
  for (let page = 1; ; page++) {
    const { data } = await json(await call(`${path}?per_page=100&page=${page}`, { token: scoped }));
    if (data.length === 0) return all;
    all.push(...data);
  }
}

// Hundreds of requests each: a generous per-test timeout.
describe("coverage through the API", { timeout: 60_000 }, () => {
  it("26 universities, each with an application cycle that opens before it closes", async () => {
    const universities = await everyPage("/v1/data/universities", "universities:read");
    expect(universities).toHaveLength(26);
    const scoped = await token({ scopes: ["universities:read"] });
    for (const u of universities) {
      const { data } = await json(await call(`/v1/data/universities/${u.slug}`, { token: scoped }));
      expect(data.application_cycles.length, `${u.slug} has a cycle`).toBeGreaterThan(0);
      for (const cycle of data.application_cycles) if (cycle.open_date) expect(cycle.open_date <= cycle.close_date).toBe(true);
    }
  });

  it("260+ qualifications, 10+ per university, nearly all with subject requirements", async () => {
    const qualifications = await everyPage("/v1/data/qualifications", "qualifications:read");
    expect(qualifications.length).toBeGreaterThanOrEqual(260);
    const perUniversity = new Map<string, number>();
    for (const q of qualifications) perUniversity.set(q.university_slug, (perUniversity.get(q.university_slug) ?? 0) + 1);
    expect(perUniversity.size).toBe(26);
    const under10 = [...perUniversity].filter(([, n]) => n < 10).map(([slug]) => slug);
    expect(under10).toEqual([]);
    const scoped = await token({ scopes: ["qualifications:requirements"] });
    let withRequirements = 0;
    for (const q of qualifications) {
      const { data } = await json(await call(`/v1/data/qualifications/${q.id}/requirements`, { token: scoped }));
      if (data.length > 0) withRequirements++;
    }
    expect(withRequirements / qualifications.length).toBeGreaterThanOrEqual(0.9);
    for (const q of qualifications) expect(["high", "medium", "low"]).toContain(q.confidence);
  });

  it("90+ NSC subjects", async () => {
    const { data } = await json(await call("/v1/data/subjects"));
    expect(data.length).toBeGreaterThanOrEqual(90);
  });

  it("bursaries with complete details from their providers' pages", async () => {
    const bursaries = await everyPage("/v1/data/bursaries", "bursaries:read");
    expect(bursaries.length).toBeGreaterThanOrEqual(40);
    const scoped = await token({ scopes: ["bursaries:read"] });
    for (const b of bursaries) {
      const { data } = await json(await call(`/v1/data/bursaries/${b.slug}`, { token: scoped }));
      expect(data.provider.length, b.slug).toBeGreaterThan(0);
      expect(data.fields.length, b.slug).toBeGreaterThan(0);
      expect(data.eligibility.length, b.slug).toBeGreaterThan(20);
      expect(data.closing_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(data.application_url).toMatch(/^https:\/\//);
      expect(data.source_url).toMatch(/^https:\/\//);
    }
  });

  it("a prospectus for every university (MUT's in three faculty parts)", async () => {
    const prospectuses = await everyPage("/v1/data/prospectuses", "prospectuses:read");
    const covered = new Set(prospectuses.map((p) => p.university_slug));
    const universities = await everyPage("/v1/data/universities", "universities:read");
    const without = universities.map((u) => u.slug).filter((slug) => !covered.has(slug)).sort();
    expect(without).toEqual([]);
  });
});
