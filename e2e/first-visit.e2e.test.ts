import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser.ts";
import { INITIAL_SCRIPT_BUDGET_BYTES, localeChunks, publishedBookPath, scriptsOfFirstVisit, totalGzipped } from "./first-visit-scripts.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("a first visit", () => {
  it.each(["/", "/catalog"])("to %s loads at most 120 KB of JavaScript, gzipped", async (path) => {
    const scripts = await scriptsOfFirstVisit(browser, baseUrl, path, "en-US");
    expect(totalGzipped(scripts), scripts.map((script) => `${script.url} ${script.gzipped}`).join("\n")).toBeLessThanOrEqual(INITIAL_SCRIPT_BUDGET_BYTES);
    // The signed-in screens, the forms and the admin panel are fetched only when shown.
    expect(scripts.map(({ url }) => url).join(" ")).not.toMatch(/upload-page|dashboard-page|admin-panel|register-page|login-page/);
  });

  it("to a book's page loads at most 120 KB of JavaScript, gzipped, and not the reader", async () => {
    const bookPage = await publishedBookPath(baseUrl);
    const scripts = await scriptsOfFirstVisit(browser, baseUrl, bookPage, "en-US");
    expect(totalGzipped(scripts), scripts.map((script) => `${script.url} ${script.gzipped}`).join("\n")).toBeLessThanOrEqual(INITIAL_SCRIPT_BUDGET_BYTES);
    expect(scripts.map(({ url }) => url).join(" ")).toMatch(/book-page/);
    expect(scripts.map(({ url }) => url).join(" ")).not.toMatch(/reader-page|pdf|upload-page|dashboard-page|admin-panel/);
  });

  // One chunk: the first screens' texts of that language, not the other screens' nor another language's.
  it("fetches the texts of the reader's language only", async () => {
    expect(localeChunks(await scriptsOfFirstVisit(browser, baseUrl, "/catalog", "fr-FR"))).toEqual(["fr"]);
    expect(localeChunks(await scriptsOfFirstVisit(browser, baseUrl, "/catalog", "de-DE"))).toEqual(["en"]);
  });
});
