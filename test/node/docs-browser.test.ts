// The reference page in a real browser: the local server runs, headless Chromium (Debian's `chromium`,
// driven by playwright-core) opens /docs, and the page must show every operation's title, say how to get a
// token, show an operation's request and response, send a real request with the reader's token, log no
// console error, and make no request that fails or leaves this origin. Screenshots go to .screenshots/ (git-ignored) for a person to look at.
// Without a Chromium executable (CHROMIUM_PATH, or /usr/bin/chromium) the test is skipped, saying so; CI
// installs Debian's package (.ci/run).
import path from "node:path";
import type { Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, openBrowser, SCREENSHOTS, visibleText, warnWithoutChromium, type BrowserSession } from "../support/browser.ts";
import { startLocalServer, type LocalServer } from "../../support/local-server.ts";

warnWithoutChromium("/docs");

describe.skipIf(!chromiumPath)("/docs in headless Chromium", () => {
  let server: LocalServer;
  let browser: BrowserSession;
  let page: BrowserSession["page"];

  /** Nothing went wrong so far: no console error, no failed request, no request to another origin. */
  const expectNoProblem = () => browser.expectNoProblem([server.base]);

  beforeAll(async () => {
    server = await startLocalServer("docs-browser-test");
    browser = await openBrowser();
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("renders every operation's title, says how to get a token, with no console error and no failed or foreign request", async () => {
    const document = (await (await fetch(`${server.base}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((o) => o.summary));
    await page.goto(`${server.base}/docs`, { waitUntil: "load" });
    await page
      .locator(".opblock")
      .nth(summaries.length - 1)
      .waitFor({ timeout: 60_000 });
    const shown = (await page.locator(".opblock-summary-description").allTextContents()).map((t) => t.trim());
    expect(shown.sort()).toEqual([...summaries].sort());
    for (const summary of summaries) await expect(page.getByText(summary, { exact: true }).first().isVisible(), summary).resolves.toBe(true);
    await expect(page.getByRole("heading", { name: "Getting a token" }).isVisible()).resolves.toBe(true);
    // The examples name the origin the page was served from (docs.js), not the production one or a fixed port.
    const intro = await visibleText(page.locator(".information-container").first());
    expect(intro).toContain(`${server.base}/v1/data/provinces`);
    expect(intro).not.toContain("https://api.sa-edu-data.co.za");
    // Swagger UI shows what it cannot read in the document in boxes of this class.
    expect(await page.locator(".errors-wrapper").allInnerTexts()).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "docs.png"), fullPage: true });
    expectNoProblem();
  });

  it("shows an operation's request and its example response when opened", async () => {
    const operation = page.locator(".opblock-post").filter({ hasText: "Calculate an APS" });
    await operation.locator(".opblock-summary").click();
    await operation.locator(".responses-wrapper").waitFor();
    const text = await visibleText(operation);
    expect(text).toContain("Request body");
    expect(text).toContain("university_slug");
    expect(text).toContain("aps_score");
    expect(text).toContain("insufficient_scope");
    await operation.screenshot({ path: path.join(SCREENSHOTS, "docs-calculate-aps.png") });
    expectNoProblem();
  });

  it("sends a real request with the reader's token (Authorize, Try it out) and shows the answer", { timeout: 240_000 }, async () => {
    await page.locator(".auth-wrapper button.authorize").click();
    await page.locator(".auth-container input").fill(await server.token(["provinces:read"]));
    await page.locator(".auth-btn-wrapper button.authorize").click();
    await page.locator(".auth-btn-wrapper button.btn-done").click();
    const operation = page.locator(".opblock-get").filter({ hasText: "List provinces" });
    await operation.locator(".opblock-summary").click();
    await operation.locator("button.try-out__btn").click();
    // One click, and the answer awaited at the network. Should it never come, the message says what the page
    // requested, what went wrong, and which pointer events reached which element (README, Tests: the Execute
    // retry this replaces).
    // (A script as text: this project's types have no DOM.)
    await page.evaluate(
      `window.pointerEvents = []; for (const type of ["mousedown", "mouseup", "click"]) document.addEventListener(type, (event) => window.pointerEvents.push(type + " " + event.target.className), true);`,
    );
    const requestedBefore = browser.requested.length;
    const isAnswer = (response: Response) => new URL(response.url()).pathname === "/v1/data/provinces";
    const answered = page.waitForResponse(isAnswer, { timeout: 120_000 }).catch(() => undefined);
    await operation.locator("button.execute").click();
    const answer = await answered;
    const evidence = async () =>
      JSON.stringify({
        requested: browser.requested.slice(requestedBefore),
        problems: browser.problems,
        pointerEvents: await page.evaluate("window.pointerEvents"),
      });
    expect(answer?.status(), `the answer to Try it out: ${answer ? "" : await evidence()}`).toBe(200);
    const live = operation.locator(".live-responses-table");
    await live.waitFor({ timeout: 60_000 });
    await expect(visibleText(live.locator("tr.response .response-col_status").first())).resolves.toContain("200");
    await expect(visibleText(live)).resolves.toContain("Gauteng");
    await operation.screenshot({ path: path.join(SCREENSHOTS, "docs-try-it-out.png") });
    expectNoProblem();
  });
});
