import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser.ts";
import { type FetchedScript, INITIAL_SCRIPT_BUDGET_BYTES, localeChunks, publishedBookPath, scriptsOfFirstVisit, totalGzipped } from "./first-visit-scripts.ts";

const baseUrl = inject("baseUrl");
/** A browser language that picks each interface language on a first visit. */
const LOCALES = ["en-US", "es-ES", "fr-FR"];
let browser: Browser;
let bookPage: string;
beforeAll(async () => {
  browser = await launchBrowser();
  bookPage = await publishedBookPath(baseUrl);
});
afterAll(() => browser?.close());

const listed = (scripts: FetchedScript[]) => scripts.map((script) => `${script.url} ${script.gzipped}`).join("\n");
const urls = (scripts: FetchedScript[]) => scripts.map(({ url }) => url).join(" ");

describe("a first visit", () => {
  describe.each(LOCALES)("in %s", (locale) => {
    it.each(["/", "/catalog"])(`to %s loads at most ${INITIAL_SCRIPT_BUDGET_BYTES / 1024} KB of JavaScript, gzipped`, async (path) => {
      const scripts = await scriptsOfFirstVisit(browser, baseUrl, path, locale);
      expect(totalGzipped(scripts), listed(scripts)).toBeLessThanOrEqual(INITIAL_SCRIPT_BUDGET_BYTES);
      // The signed-in screens, the forms, the admin panel and WalletConnect are fetched only when shown.
      expect(urls(scripts)).not.toMatch(/upload-page|dashboard-page|admin-panel|register-page|login-page|walletconnect/);
    });

    it(`to a book's page loads at most ${INITIAL_SCRIPT_BUDGET_BYTES / 1024} KB of JavaScript, gzipped, and not the reader`, async () => {
      const scripts = await scriptsOfFirstVisit(browser, baseUrl, bookPage, locale);
      expect(totalGzipped(scripts), listed(scripts)).toBeLessThanOrEqual(INITIAL_SCRIPT_BUDGET_BYTES);
      expect(urls(scripts)).toMatch(/book-page/);
      expect(urls(scripts)).not.toMatch(/reader-page|pdf|upload-page|dashboard-page|admin-panel/);
    });
  });

  // One chunk: the first screens' texts of that language, not the other screens' nor another language's.
  it("fetches the texts of the reader's language only", async () => {
    expect(localeChunks(await scriptsOfFirstVisit(browser, baseUrl, "/catalog", "fr-FR"))).toEqual(["fr"]);
    expect(localeChunks(await scriptsOfFirstVisit(browser, baseUrl, "/catalog", "de-DE"))).toEqual(["en"]);
  });
});
