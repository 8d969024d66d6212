import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
let bookId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await newVisitor(browser, baseUrl);
  await registerAccount(author.request, { firstName: "Olga", lastName: "Liseuse" });
  bookId = await publishPdf(author.request, { title: "Un libro para la liseuse", description: "Leído en un Kobo." });
  await author.close();
});
afterAll(() => browser?.close());

/** What an e-reader app does: fetch the book's file with HTTP Basic, no cookie. */
const fetchWithKey = (username: string, key: string) =>
  fetch(`${baseUrl}/opds/books/${bookId}/file`, { headers: { Authorization: `Basic ${Buffer.from(`${username}:${key}`).toString("base64")}` } });

async function signedInReader(language: Language, username: string): Promise<Page> {
  const context = await newVisitor(browser, baseUrl, { en: "en-US", es: "es-ES", fr: "fr-FR" }[language]);
  const page = await context.newPage();
  await registerAccount(page.request, { firstName: "Lena", lastName: "Lectora", username });
  await page.goto("/dashboard");
  if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
  await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
  return page;
}

describe("e-reader apps in the settings", () => {
  it("a reader creates a key, sees it once, downloads through OPDS with it, revokes it, and the same fetch is refused", async () => {
    const username = `kobo_reader_${Date.now()}`;
    const page = await signedInReader("en", username);
    // The dashboard leads to them.
    await page.click('[data-testid="settings-e-readers-link"]');
    await page.waitForURL(/\/settings#e-readers$/);
    expect(await page.textContent('[data-testid="opds-catalog-url"]')).toBe(`${baseUrl}/opds`);
    await expect.poll(() => page.getByText(text("en", "eReaders.list.empty")).isVisible()).toBe(true);

    // With the keyboard: the name, then Enter sends the form.
    await page.getByLabel(text("en", "eReaders.create.nameLabel")).fill("Kobo Clara");
    await page.keyboard.press("Enter");
    const shown = page.locator('[data-testid="new-e-reader-key-value"]');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(text("en", "eReaders.newKey.title", { name: "Kobo Clara" }));
    await screenshotBoth(page, "e-readers-new-key-en");

    const download = await fetchWithKey(username, key);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await download.arrayBuffer()).equals(readFileSync(fixture("book.pdf")))).toBe(true);

    // Shown once: once hidden, or after a reload, the key is nowhere on the page.
    await page.getByRole("button", { name: text("en", "eReaders.newKey.done") }).click();
    await page.reload();
    const row = page.locator('[data-testid="e-reader-key"]', { hasText: "Kobo Clara" });
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await row.textContent()).toContain(text("en", "eReaders.list.lastUsed", { date: "" }).trim());

    // Revoked with the keyboard: the dialog opens on "cancel", Tab reaches "revoke".
    await row.getByRole("button", { name: new RegExp(text("en", "eReaders.list.revoke")) }).focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="confirm-revoke-e-reader-key"]').waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await row.textContent()) ?? "").toContain(text("en", "eReaders.list.revoked", { date: "" }).trim());

    const refused = await fetchWithKey(username, key);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Basic realm="Plume", charset="UTF-8"');
    expect(policyViolationsOf(page.context())).toEqual([]);
    await page.context().close();
  });

  it.each(["en", "es", "fr"] as const)("the section passes axe at both widths and is translated (%s)", async (language) => {
    const page = await signedInReader(language, `tab_${language}_${Date.now()}`);
    await page.goto("/settings#e-readers");
    await page.getByLabel(text(language, "eReaders.create.nameLabel")).fill("KOReader");
    await page.click('[data-testid="create-e-reader-key"]');
    await page.locator('[data-testid="new-e-reader-key-value"]').waitFor();
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `e-reader apps (${language}, ${size.width} px)`);
      const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(scrollsSideways, `e-reader apps scrolls sideways at ${size.width} px`).toBe(false);
    }
    await expectNoRawTranslationKeys(page, `e-reader apps (${language})`);
    await screenshotBoth(page, `e-readers-${language}`);

    await page.locator('[data-testid="e-reader-key"]').getByRole("button").click();
    await page.locator('[data-testid="confirm-revoke-e-reader-key"]').waitFor();
    await expectAccessible(page, `e-reader apps, revoke dialog (${language})`);
    await screenshotBoth(page, `e-readers-revoke-${language}`);
    expect(policyViolationsOf(page.context())).toEqual([]);
    await page.context().close();
  });
});
