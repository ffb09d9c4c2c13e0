// Headless Chromium for the browser tests (the reference page, the embed example): Debian's `chromium`
// (CHROMIUM_PATH, or /usr/bin/chromium) driven by playwright-core, never playwright's own downloads. A test
// file skips, saying so, when there is no Chromium executable; CI installs Debian's package (.ci/run).
// Every page opened here records what went wrong (console errors, page errors, failed requests, answers of
// 400 or more) and every URL it requested, for expectNoProblem.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";
import { ROOT } from "../../support/test-dataset.ts";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((p): p is string => Boolean(p));
export const chromiumPath = CANDIDATES.find((p) => existsSync(p));

/** Screenshots for a person to look at (git-ignored). */
export const SCREENSHOTS = path.join(ROOT, ".screenshots");

// Without the background-networking switches Chromium calls Google's services, which this machine's
// closed network refuses (and a real user's browser has no business doing from a test either).
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What the reader sees of an element: Playwright's rendered text (hidden parts left out, as laid out). */
export function visibleText(locator: Locator, options?: { timeout?: number }): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; its innerText is the rendered text these tests check, textContent would include what the reader does not see
  return locator.innerText(options);
}

/** Says why a browser test file is skipped; call at the top of the file. */
export function warnWithoutChromium(what: string): void {
  if (chromiumPath) return;
  console.warn(
    `\n  SKIPPED the browser test of ${what}: no Chromium executable at ${CANDIDATES.join(" or ")}.` +
      `\n  Install Debian's package (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH.\n`,
  );
}

export type BrowserSession = {
  page: Page;
  /** Console errors, page errors, failed requests and answers of 400 or more, as they happened. */
  problems: string[];
  /** Every URL the page requested. */
  requested: string[];
  /** No problem so far, and no request outside `origins` (data: and blob: URLs aside). */
  expectNoProblem(origins: string[]): void;
  close(): Promise<void>;
};

export async function openBrowser(): Promise<BrowserSession> {
  if (!chromiumPath) throw new Error("no Chromium executable");
  const profile = await mkdtemp(path.join(os.tmpdir(), "chromium-profile-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  const requested: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => requested.push(request.url()));
  page.on("requestfailed", (request) => problems.push(`failed request: ${request.url()} (${request.failure()?.errorText})`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    page,
    problems,
    requested,
    expectNoProblem(origins) {
      expect(problems).toEqual([]);
      const outside = requested.filter(
        (url) => !url.startsWith("data:") && !url.startsWith("blob:") && !origins.some((o) => url.startsWith(`${o}/`)),
      );
      expect(outside).toEqual([]);
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
