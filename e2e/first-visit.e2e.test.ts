import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newVisitor } from "./browser.ts";

/** Issue budget: a first visit runs at most this much JavaScript, gzipped. */
const INITIAL_SCRIPT_BUDGET_BYTES = 120 * 1024;

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Every script a fresh visitor's browser fetched to show a page, with its gzipped size. */
async function scriptsOfFirstVisit(path: string, locale: string): Promise<Array<{ url: string; gzipped: number }>> {
  const context = await newVisitor(browser, baseUrl, locale);
  const page = await context.newPage();
  const scripts: Array<Promise<{ url: string; gzipped: number }>> = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, gzipped: gzipSync(body, { level: 9 }).length })));
  });
  await page.goto(path, { waitUntil: "networkidle" });
  const fetched = await Promise.all(scripts);
  await context.close();
  return fetched;
}

const localeChunks = (scripts: Array<{ url: string }>) =>
  scripts.map(({ url }) => /\/assets\/(en|es|fr)-[\w-]+\.js$/.exec(url)?.[1]).filter(Boolean);

describe("a first visit", () => {
  it.each(["/", "/catalog"])("to %s loads at most 120 KB of JavaScript, gzipped", async (path) => {
    const scripts = await scriptsOfFirstVisit(path, "en-US");
    const total = scripts.reduce((sum, script) => sum + script.gzipped, 0);
    expect(total, scripts.map((script) => `${script.url} ${script.gzipped}`).join("\n")).toBeLessThanOrEqual(INITIAL_SCRIPT_BUDGET_BYTES);
    // The signed-in screens, the forms and the admin panel are fetched only when shown.
    expect(scripts.map(({ url }) => url).join(" ")).not.toMatch(/upload-page|dashboard-page|admin-panel|register-page|login-page/);
  });

  // One chunk: the first screens' texts of that language, not the other screens' nor another language's.
  it("fetches the texts of the reader's language only", async () => {
    expect(localeChunks(await scriptsOfFirstVisit("/catalog", "fr-FR"))).toEqual(["fr"]);
    expect(localeChunks(await scriptsOfFirstVisit("/catalog", "de-DE"))).toEqual(["en"]);
  });
});
