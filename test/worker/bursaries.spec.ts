// Bursary records and the fields-of-study vocabulary through the real Worker and the real build (issue 18):
// cycles newest first with the list's dates taken from the latest one, the expected next cycle of annual
// schemes (projected, flagged, never mixed with published cycles), confidence from the latest cycle's witness,
// the structured requirements, and the vocabulary's counts against the `field` filter. Rules are restated here
// independently of build/bursaries.ts and domain/bursary-cycles.ts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type * as api from "../../schema/api.ts";
import { call, json, token } from "./support.ts";
import type { Json } from "../support/contract.ts";

vi.setConfig({ testTimeout: 60_000 });

let scoped = "";
const list: api.BursaryListItem[] = [];
let details: api.Bursary[] = [];
let fields: api.FieldOfStudy[] = [];

async function get(path: string): Promise<Json> {
  const response = await call(path, { token: scoped });
  expect(response.status, path).toBe(200);
  return json(response);
}

beforeAll(async () => {
  scoped = await token({ scopes: ["bursaries:read"] });
  for (let page = 1; ; page++) {
    const { data } = await get(`/v1/data/bursaries?per_page=100&page=${page}`);
    if (data.length === 0) break;
    list.push(...data);
  }
  details = await Promise.all(list.map(async (b) => (await get(`/v1/data/bursaries/${b.slug}`)).data));
  fields = (await get("/v1/data/fields-of-study")).data;
}, 120_000);

/** The same day `years` later or earlier; 29 February becomes 28 February in a common year. */
function addYears(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${year}-${date.slice(5) === "02-29" && !leap ? "02-28" : date.slice(5)}`;
}

describe("bursary records", () => {
  it("every detail is its list item plus the detail fields, and carries SPEC.md's fields", () => {
    expect(details.length).toBe(list.length);
    details.forEach((detail, i) => {
      const item = list[i] as Record<string, unknown>;
      for (const [key, value] of Object.entries(item)) expect((detail as Record<string, unknown>)[key], `${detail.slug} ${key}`).toEqual(value);
      for (const field of ["id", "slug", "name", "closing_date", "provider", "fields", "eligibility"]) expect(detail).toHaveProperty(field);
    });
  });

  it("cycles: newest intake first, one per intake, opening on or before closing; the list's dates are the latest cycle's", () => {
    for (const b of details) {
      const years = b.cycles.map((c) => c.intake_year);
      expect(years, b.slug).toEqual([...years].sort((x, y) => y - x));
      expect(new Set(years).size, b.slug).toBe(years.length);
      for (const c of b.cycles) if (c.open_date !== null) expect(c.open_date <= c.close_date, `${b.slug} ${c.intake_year}`).toBe(true);
      const latest = b.cycles[0];
      expect({ closing_date: b.closing_date, opening_date: b.opening_date, intake_year: b.intake_year }, b.slug).toEqual({
        closing_date: latest?.close_date,
        opening_date: latest?.open_date,
        intake_year: latest?.intake_year,
      });
    }
  });

  it("expected_next_cycle: only for annual schemes, flagged, the latest cycle moved on by whole years, never a published cycle", () => {
    const annual = details.filter((b) => b.recurs === "annual");
    expect(annual.length).toBeGreaterThanOrEqual(20);
    for (const b of details) {
      if (b.recurs !== "annual") {
        expect(b.expected_next_cycle, b.slug).toBeNull();
        continue;
      }
      const next = b.expected_next_cycle;
      const latest = b.cycles[0];
      if (!next || !latest) throw new Error(`${b.slug}: an annual scheme without an expected cycle`);
      expect(next.expected).toBe(true);
      expect(["provider-statement", "past-cycles"]).toContain(next.basis);
      const years = next.intake_year - latest.intake_year;
      expect(years, b.slug).toBeGreaterThanOrEqual(1);
      expect(next.close_date).toBe(addYears(latest.close_date, years));
      expect(next.open_date).toBe(latest.open_date === null ? null : addYears(latest.open_date, years));
      // The first such year that closes on or after the build date (never before the day the data was prepared).
      expect(next.close_date >= "2026-11-24", b.slug).toBe(true);
      if (years > 1) expect(addYears(latest.close_date, years - 1) < next.close_date).toBe(true);
      expect(
        b.cycles.some((c) => c.intake_year === next.intake_year),
        b.slug,
      ).toBe(false);
    }
    // Recurrence from past cycles: two published cycles on the same dates.
    for (const b of annual.filter((x) => x.expected_next_cycle?.basis === "past-cycles")) {
      const same = b.cycles.some((a, i) =>
        b.cycles.some(
          (c, j) =>
            j > i &&
            a.close_date.slice(5) === c.close_date.slice(5) &&
            (a.open_date === null || c.open_date === null || a.open_date.slice(5) === c.open_date.slice(5)),
        ),
      );
      expect(same, b.slug).toBe(true);
    }
  });

  it("confidence comes from the latest cycle's witness: own page or document high, transcription or a corroborated third party medium, else low", () => {
    const counts = { high: 0, medium: 0, low: 0 };
    for (const b of details) {
      const latest = b.cycles[0];
      if (!latest) throw new Error(b.slug);
      const expected =
        latest.evidence_kind === "own-page" || latest.evidence_kind === "official-document"
          ? "high"
          : latest.evidence_kind === "transcription" || latest.corroborated_by !== null
            ? "medium"
            : "low";
      expect(b.confidence, b.slug).toBe(expected);
      counts[b.confidence]++;
    }
    for (const level of ["high", "medium", "low"] as const) expect(counts[level], level).toBeGreaterThan(0);
  });

  it("requires: provinces are province ids, amounts are positive, and fields are slugs of the vocabulary", async () => {
    const provinces = new Set(((await json(await call("/v1/data/provinces"))).data as api.Province[]).map((p) => p.id));
    const slugs = new Set(fields.map((f) => f.slug));
    for (const b of details) {
      for (const p of b.requires.provinces) expect(provinces.has(p), `${b.slug} ${p}`).toBe(true);
      for (const f of b.fields) expect(slugs.has(f), `${b.slug} ${f}`).toBe(true);
    }
    expect(details.some((b) => b.requires.provinces.length > 0)).toBe(true);
    expect(details.some((b) => b.requires.min_average !== null)).toBe(true);
    expect(details.some((b) => b.requires.household_income_max_zar !== null)).toBe(true);
    expect(details.some((b) => b.value_zar !== null)).toBe(true);
    expect(details.some((b) => b.covers.includes("tuition"))).toBe(true);
  });
});

describe("the breadth issue 18 asks for, through the API", () => {
  it("at least 150 bursaries open to undergraduates, every one with a cycle, at least 60% with a cycle for 2026 or later, every field used", async () => {
    const undergraduate = (await get("/v1/data/bursaries?study_level=undergraduate&per_page=1")).meta.total;
    expect(undergraduate).toBe(details.filter((b) => b.study_levels.includes("undergraduate")).length);
    expect(undergraduate).toBeGreaterThanOrEqual(150);
    for (const b of details) expect(b.cycles.length, b.slug).toBeGreaterThanOrEqual(1);
    // A fixed year, as the issue states it: the share must not pass or fail with the day the tests run.
    const current = details.filter((b) => b.cycles.some((c) => c.intake_year >= 2026)).length;
    const dated = details.filter((b) => b.cycles.some((c) => c.intake_year >= 2026 && c.dates_from === "call")).length;
    // The standing windows (dates_from: standing-rule) count: they are the providers' own statements of their dates.
    expect(current / details.length, `${current} of ${details.length} (${dated} with a dated call)`).toBeGreaterThanOrEqual(0.6);
    // Dated calls alone fall short of the 60% (README, Bursaries): this floor holds what they reach.
    expect(dated / details.length, `${dated} of ${details.length} with a dated call`).toBeGreaterThanOrEqual(0.55);
    // Named by a bursary itself: the field filter's count also holds every all-fields bursary, so it cannot show this.
    for (const f of fields)
      expect(
        details.some((b) => b.fields.includes(f.slug)),
        f.slug,
      ).toBe(true);
  });
});

describe("GET /v1/data/fields-of-study", () => {
  it("is the whole vocabulary, ordered by name, each with the count the field filter gives", async () => {
    expect(fields.length).toBeGreaterThanOrEqual(20);
    const names = fields.map((f) => f.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true })));
    for (const f of fields) {
      expect((await get(`/v1/data/bursaries?field=${f.slug}&per_page=1`)).meta.total, f.slug).toBe(f.bursary_count);
      expect(f.bursary_count, f.slug).toBeGreaterThan(0);
    }
    expect(fields.find((f) => f.slug === "all-fields")?.bursary_count).toBe(details.filter((b) => b.fields.includes("all-fields")).length);
  });

  it("needs bursaries:read and takes no parameters", async () => {
    expect((await call("/v1/data/fields-of-study", { token: await token({ scopes: ["universities:read"] }) })).status).toBe(403);
    expect((await call("/v1/data/fields-of-study?page=2", { token: scoped })).status).toBe(400);
  });
});
