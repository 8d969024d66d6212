import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixture, multiPagePdf } from "../test/helpers/book-fixtures.ts";
import { partialMd5 } from "../server/books/partial-md5.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { VIEWPORTS, gotoSettingsSection, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");

let browser: Browser;
let bookId: number;
let longBookId: number;
let epubBookId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await newVisitor(browser, baseUrl);
  await registerAccount(author.request, { firstName: "Olga", lastName: "Liseuse" });
  bookId = await publishPdf(author.request, { title: "Un libro para la liseuse", description: "Leído en un Kobo." });
  longBookId = await publishPdf(author.request, { title: "Doce páginas", pdf: await multiPagePdf(12) });
  epubBookId = await publishPdf(author.request, { title: "Dos capítulos", file: "book.epub" });
  await author.close();
});
afterAll(() => browser?.close());

/** What an e-reader app does: fetch the book's file with HTTP Basic, no cookie. */
const fetchWithKey = (username: string, key: string, id = bookId) =>
  fetch(`${baseUrl}/opds/books/${id}/file`, { headers: { Authorization: `Basic ${Buffer.from(`${username}:${key}`).toString("base64")}` } });

/** What KOReader's progress sync does: JSON with the username and the MD5 of the key typed as the password. */
const koreaderSync = (path: string, username: string, key: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}/kosync${path}`, {
    ...init,
    headers: {
      Accept: "application/vnd.koreader.v1+json",
      "Content-Type": "application/json",
      "x-auth-user": username,
      "x-auth-key": createHash("md5").update(key.toLowerCase().replaceAll("-", "")).digest("hex"),
    },
  });

/** KOReader's name for a file it downloaded: the partial MD5 of its bytes. */
async function koreaderDocumentOf(bytes: ArrayBuffer): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "koreader-"));
  try {
    await writeFile(join(folder, "book.pdf"), Buffer.from(bytes));
    return await partialMd5(join(folder, "book.pdf"));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

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

  it("a place KOReader saves opens the browser reader there, and the browser's place is answered to KOReader", async () => {
    const username = `koreader_${Date.now()}`;
    const page = await signedInReader("en", username);
    await gotoSettingsSection(page, "e-readers");
    expect(await page.textContent('[data-testid="kosync-server-url"]')).toBe(`${baseUrl}/kosync`);
    await page.getByLabel(text("en", "eReaders.create.nameLabel")).fill("KOReader");
    await page.click('[data-testid="create-e-reader-key"]');
    const key = (await page.locator('[data-testid="new-e-reader-key-value"]').textContent())!;

    // KOReader signs in, takes the book through OPDS, reads to page 9 and pushes its place.
    expect(await (await koreaderSync("/users/auth", username, key)).json()).toEqual({ authorized: "OK" });
    const document = await koreaderDocumentOf(await (await fetchWithKey(username, key, longBookId)).arrayBuffer());
    const pushed = await koreaderSync("/syncs/progress", username, key, {
      method: "PUT",
      body: JSON.stringify({ document, progress: "9", percentage: 0.6667, device: "Kobo Libra 2", device_id: "KOBO-E2E" }),
    });
    expect(pushed.status).toBe(200);

    await page.goto(`/books/${longBookId}/read`);
    await expect.poll(() => page.locator('[data-testid="reader-page-input"]').inputValue()).toBe("9");

    // Turned in the browser, the place reaches KOReader as the page it holds.
    // Once the file is read, its pages are known and the next one can be turned to.
    await page.getByTestId("reader-next").click();
    await expect.poll(() => page.locator('[data-testid="reader-page-input"]').inputValue()).toBe("10");
    await page.goto("/settings");
    await expect
      .poll(async () => ((await (await koreaderSync(`/syncs/progress/${document}`, username, key)).json()) as { progress?: string }).progress)
      .toBe("10");
    expect(policyViolationsOf(page.context())).toEqual([]);
    await page.context().close();
  });

  it("an EPUB place KOReader saves opens the browser reader in its chapter, and the browser's chapter is answered to KOReader", async () => {
    const username = `koreader_epub_${Date.now()}`;
    const page = await signedInReader("en", username);
    const created = await page.request.post("/api/e-reader-keys", { data: { name: "Kobo" } });
    const { key } = (await created.json()) as { key: string };

    const file = await fetchWithKey(username, key, epubBookId);
    expect(file.headers.get("content-type")).toBe("application/epub+zip");
    const document = await koreaderDocumentOf(await file.arrayBuffer());
    const pushed = await koreaderSync("/syncs/progress", username, key, {
      method: "PUT",
      body: JSON.stringify({ document, progress: "/body/DocFragment[2]/body/section/p[2]/text().4", percentage: 0.75, device: "Kobo Libra 2", device_id: "KOBO-E2E" }),
    });
    expect(pushed.status).toBe(200);

    await page.goto(`/books/${epubBookId}/read`);
    const percent = page.getByTestId("epub-percent");
    await percent.waitFor();
    await expect.poll(async () => Number(await percent.getAttribute("data-fraction"))).toBeGreaterThan(0.5);

    // Back to the first chapter in the browser: KOReader is sent to its start.
    await page.getByTestId("epub-toc-toggle").click();
    await page.getByTestId("epub-toc").getByRole("button").first().click();
    await expect.poll(async () => Number(await percent.getAttribute("data-fraction"))).toBeLessThan(0.5);
    await page.goto("/settings");
    await expect
      .poll(async () => ((await (await koreaderSync(`/syncs/progress/${document}`, username, key)).json()) as { progress?: string }).progress)
      .toBe("/body/DocFragment[1]");
    expect(policyViolationsOf(page.context())).toEqual([]);
    await page.context().close();
  });

  it.each(["en", "es", "fr"] as const)("the section passes axe at both widths and is translated (%s)", async (language) => {
    const page = await signedInReader(language, `tab_${language}_${Date.now()}`);
    await gotoSettingsSection(page, "e-readers");
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
