// The embed example (examples/embed/) in a real browser, as a partner's visitor sees it: the local API server
// runs (with CORS_ORIGINS *, as in production), the example is served on an origin of its own with a
// publishable token minted for that origin (support/embed-example.ts, what `npm start` runs), and headless
// Chromium opens it, types into the school picker, filters by province, picks a school, enters Learner A's
// marks and asks where they qualify. What the page shows must agree with the API's own answers to the same
// questions; no console error, no failed request, no request beyond the page's origin and the API, and every
// API answer names the page's origin in Access-Control-Allow-Origin. The screenshot goes to .screenshots/embed.png.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBED_SCOPES, startEmbedExample, type EmbedExample } from "../../support/embed-example.ts";
import { LEARNER_A_MARKS } from "../fixtures/learners.ts";
import { chromiumPath, openBrowser, SCREENSHOTS, visibleText, warnWithoutChromium, type BrowserSession } from "../support/browser.ts";
import { startLocalServer, type LocalServer } from "../../support/local-server.ts";

warnWithoutChromium("the embed example");

type Missing = { kind: string; need?: number; have?: number };
type Compared = {
  data: { university_name: string; qualifies_for: string[]; qualifications: unknown[]; near_misses: { name: string; missing: Missing[] }[] }[];
  meta: { universities: number; qualifies_for_total: number };
};

describe.skipIf(!chromiumPath)("the embed example in headless Chromium", () => {
  let server: LocalServer;
  let embed: EmbedExample;
  let browser: BrowserSession;
  let page: BrowserSession["page"];
  /** Access-Control-Allow-Origin of every answer the page had from the API. */
  const allowedOrigins = new Set<string | null>();
  /** The query strings of the page's requests for the high-schools list, in order. */
  const schoolSearches: string[] = [];

  /** The API's own answer, asked from Node with a secret token. */
  async function ask<T>(pathAndQuery: string, body?: unknown): Promise<T> {
    const token = await server.token(["high_schools:read", "aps_calculator:use"]);
    const init: RequestInit = body === undefined ? {} : { method: "POST", body: JSON.stringify(body) };
    const response = await fetch(`${server.base}${pathAndQuery}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    server = await startLocalServer("embed-browser-test", { CORS_ORIGINS: "*" });
    embed = await startEmbedExample({ api: server.base, token: (origin) => server.token(EMBED_SCOPES, [origin]) });
    browser = await openBrowser();
    page = browser.page;
    page.on("response", (response) => {
      if (response.url().startsWith(`${server.base}/`)) allowedOrigins.add(response.headers()["access-control-allow-origin"] ?? null);
    });
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (request.method() === "GET" && url.pathname === "/v1/data/high-schools") schoolSearches.push(url.search);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await embed?.stop();
    await server?.stop();
  });

  it("loads the provinces and subjects with the publishable token", async () => {
    await page.goto(`${embed.origin}/`, { waitUntil: "load" });
    await page.locator("#sa-edu-school-picker select[name=province] option").nth(9).waitFor({ state: "attached" });
    await page.locator("#sa-edu-aps tbody tr").nth(6).waitFor();
    expect(await page.locator("#sa-edu-school-picker select[name=province] option").count()).toBe(10);
    expect(await page.locator("#sa-edu-aps tbody tr").count()).toBe(7);
    browser.expectNoProblem([embed.origin, server.base]);
  });

  it("finds a school by name as the reader types, filters by province, and picks one", async () => {
    const picker = page.locator("#sa-edu-school-picker");
    await picker.locator("input[name=q]").pressSequentially("pretoria boys", { delay: 30 });
    await expect(visibleText(picker.locator(".sa-edu-schools li").first(), { timeout: 60_000 })).resolves.toContain("PRETORIA BOYS' HIGH SCHOOL");

    const expected = await ask<{ data: { name: string; emis_number: string }[]; meta: { total: number } }>(
      "/v1/data/high-schools?q=hoerskool&province=GP&per_page=10",
    );
    await picker.locator("input[name=q]").fill("hoerskool");
    await picker.locator("select[name=province]").selectOption({ label: "Gauteng" });
    const status = picker.locator(".sa-edu-status");
    await expect.poll(() => visibleText(status), { timeout: 60_000 }).toBe(`${expected.meta.total} schools match; the first 10:`);
    // Typing then choosing a province asks once: the typing timer's search of the same query would replace the list
    // under the pointer (it lost a click before). Past the timer's 250 ms, nothing more may have been asked.
    await page.waitForTimeout(750);
    expect(schoolSearches.filter((search) => search.includes("q=hoerskool") && search.includes("province=gauteng"))).toHaveLength(1);
    const shown = await picker.locator(".sa-edu-schools .sa-edu-name").allInnerTexts();
    expect(shown).toEqual(expected.data.map((s) => s.name));
    for (const facts of await picker.locator(".sa-edu-schools .sa-edu-facts").allInnerTexts()) expect(facts).toMatch(/^Gauteng · EMIS \d+/);

    await picker.locator(".sa-edu-schools button").first().click();
    const first = expected.data[0];
    await expect(visibleText(picker.locator(".sa-edu-chosen"))).resolves.toBe(`Your school: ${first?.name} (Gauteng, EMIS ${first?.emis_number})`);
    browser.expectNoProblem([embed.origin, server.base]);
  });

  it("takes a learner's marks and shows the universities where they qualify and the near misses, as the API answers them", async () => {
    const aps = page.locator("#sa-edu-aps");
    for (const [i, mark] of LEARNER_A_MARKS.entries()) {
      const row = aps.locator("tbody tr").nth(i);
      await row.locator("select").selectOption(mark.subject_slug);
      await row.locator("input").fill(String(mark.percentage));
    }
    await aps.locator("button[type=submit]").click();

    const expected = await ask<Compared>("/v1/data/aps-calculator/compare", { marks: LEARNER_A_MARKS });
    const where = expected.data.filter((u) => u.qualifies_for.length > 0);
    expect(where.length).toBeGreaterThan(0);
    await expect
      .poll(() => visibleText(aps.locator(".sa-edu-status")), { timeout: 60_000 })
      .toBe(`You qualify for ${expected.meta.qualifies_for_total} qualifications at ${where.length} of ${expected.meta.universities} universities.`);
    const universities = await aps.locator(".sa-edu-universities > li summary").allInnerTexts();
    expect(universities).toHaveLength(where.length);
    const most = Math.max(...where.map((u) => u.qualifications.length));
    expect(universities[0]).toMatch(new RegExp(`· ${most} qualifications?$`));
    expect(new Set(universities.map((u) => u.split(" · ")[0]))).toEqual(new Set(where.map((u) => u.university_name)));

    // The ten closest near misses over all universities: fewest things missing, then the smallest APS gap, then
    // each university's closest before any university's second.
    const gap = (missing: Missing[]) => missing.reduce((n, m) => (m.kind === "aps" ? n + (m.need ?? 0) - (m.have ?? 0) : n), 0);
    const close = expected.data
      .flatMap((u) => u.near_misses.map((m, rank) => ({ text: `${m.name} at ${u.university_name}: `, missing: m.missing, rank })))
      .sort((a, b) => a.missing.length - b.missing.length || gap(a.missing) - gap(b.missing) || a.rank - b.rank);
    expect(close.length).toBeGreaterThan(10);
    const nearMisses = await aps.locator(".sa-edu-near > li").allInnerTexts();
    expect(nearMisses).toHaveLength(10);
    nearMisses.forEach((text, i) => {
      expect(text.startsWith(close[i]?.text ?? "?"), text).toBe(true);
    });
    await expect(visibleText(aps.locator(".sa-edu-more"))).resolves.toBe(`and ${close.length - 10} more near misses.`);
    await page.screenshot({ path: path.join(SCREENSHOTS, "embed.png"), fullPage: true });

    // A university opens to its qualifications.
    const smallest = where.reduce((a, b) => (b.qualifications.length < a.qualifications.length ? b : a));
    const item = aps.locator(".sa-edu-universities > li").filter({ hasText: smallest.university_name });
    await item.locator("summary").click();
    await expect(item.locator("details ul > li").count()).resolves.toBe(smallest.qualifications.length);
    browser.expectNoProblem([embed.origin, server.base]);
    // Every answer was for the page's origin by name, never `*`: the token is publishable.
    expect([...allowedOrigins]).toEqual([embed.origin]);
  });
});
