// Coverage through the API, cheaply: the totals a client sees in meta, per university through the
// university_slug filter. The detailed floors are asserted on the build's model in plain Node
// (test/node/coverage.test.ts), which is where the time-consuming per-record checks belong.
import { describe, expect, it } from "vitest";
import { BASE, callHandler, json, token } from "./support.ts";
import { CATALOGUE_FLOORS, SHORT_LISTS } from "../support/catalogue-floors.ts";

// Thousands of requests: the handler is called directly (support.ts says why), with the real environment.
async function call(path: string, init: { token?: string } = {}): Promise<Response> {
  return callHandler(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${init.token ?? (await token())}` } }));
}

const total = async (path: string, scope: string) => (await json(await call(path, { token: await token({ scopes: [scope] }) }))).meta.total as number;

describe("coverage through the API", () => {
  it("26 universities and 1,800+ qualifications, each university's count through its filter at its floor", async () => {
    expect(await total("/v1/data/universities?per_page=1", "universities:read")).toBe(26);
    const all = await total("/v1/data/qualifications?per_page=1", "qualifications:read");
    expect(all).toBeGreaterThanOrEqual(CATALOGUE_FLOORS.total);
    const universities = (await json(await call("/v1/data/universities?per_page=100"))).data as { slug: string }[];
    let sum = 0;
    for (const u of universities) {
      const count = await total(`/v1/data/qualifications?per_page=1&university_slug=${u.slug}`, "qualifications:read");
      expect(count, u.slug).toBeGreaterThanOrEqual(SHORT_LISTS[u.slug] ?? CATALOGUE_FLOORS.perUniversity);
      sum += count;
    }
    expect(sum).toBe(all);
  });

  it("subject requirements for 95%+ and the current intake for 90%+ of the qualifications a client can list", { timeout: 60_000 }, async () => {
    const scoped = await token({ scopes: ["qualifications:read", "qualifications:requirements"] });
    const items: { id: string; intake_year: number }[] = [];
    const official = (q: { id: string }) => officialIds.has(q.id);
    const officialIds = new Set<string>();
    for (let page = 1; ; page++) {
      const { data } = await json(await call(`/v1/data/qualifications?per_page=100&page=${page}`, { token: scoped }));
      if (data.length === 0) break;
      items.push(...data);
    }
    let withRequirements = 0;
    // Each record's requirements and detail, twenty records at a time.
    for (let i = 0; i < items.length; i += 20) {
      await Promise.all(
        items.slice(i, i + 20).map(async (q) => {
          const [answer, detail] = await Promise.all([
            json(await call(`/v1/data/qualifications/${q.id}/requirements`, { token: scoped })),
            json(await call(`/v1/data/qualifications/${q.id}`, { token: scoped })),
          ]);
          if (answer.data.length > 0) withRequirements++;
          const sources: { kind: string; intake_year: number | null }[] = detail.data.sources;
          if (sources.some((s) => (s.kind === "own-page" || s.kind === "official-document") && s.intake_year !== null && s.intake_year >= 2026))
            officialIds.add(q.id);
        }),
      );
    }
    expect(withRequirements / items.length, `${withRequirements} of ${items.length} with subject requirements`).toBeGreaterThanOrEqual(
      CATALOGUE_FLOORS.withRequirements,
    );
    const current = items.filter((q) => q.intake_year >= 2027 || official(q)).length;
    expect(current / items.length, `${current} of ${items.length} on the 2027 intake or an official 2026 document`).toBeGreaterThanOrEqual(
      CATALOGUE_FLOORS.currentIntake,
    );
    expect(officialIds.size, "rows with an official witness for 2026 or later").toBeGreaterThanOrEqual(CATALOGUE_FLOORS.officialCurrent);
  });

  it("8,700+ high schools and 20,000+ postal codes, out of the box", async () => {
    expect(await total("/v1/data/high-schools?per_page=1", "high_schools:read")).toBeGreaterThanOrEqual(8_700);
    expect(await total("/v1/data/postal-codes?per_page=1", "postal_codes:read")).toBeGreaterThanOrEqual(20_000);
  });

  it("a prospectus for every university", async () => {
    const scoped = await token({ scopes: ["prospectuses:read"] });
    const { data } = await json(await call("/v1/data/prospectuses?per_page=100", { token: scoped }));
    expect(new Set(data.map((p: { university_slug: string }) => p.university_slug)).size).toBe(26);
  });
});
