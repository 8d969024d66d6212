import { readFileSync } from "node:fs";
import type { APIRequestContext, Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bookPath } from "../shared/book-urls.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { E2E_PASSWORD as PASSWORD, publishPdf, registerAccount } from "./authors.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { type Language, text } from "./locales.ts";

/** Book and author pages (docs/product.md#book-pages): a shared link's journey, and each page in three languages. */

const baseUrl = inject("baseUrl");
const NARROW_PHONE = { width: 360, height: 740 };

let browser: Browser;
const openContexts: BrowserContext[] = [];
const title = `The Lighthouse Keeper's Ledger ${Date.now()}`;
let book: { id: number; title: string };
let authorId: string;

async function openVisitor(locale = "en-US"): Promise<Page> {
  const context = await newVisitor(browser, baseUrl, locale);
  openContexts.push(context);
  return context.newPage();
}

const register = (request: APIRequestContext, firstName: string, lastName: string) => registerAccount(request, { firstName, lastName });

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await openVisitor();
  authorId = (await register(author.request, "Rosalía", "de Castro")).id;
  const id = await publishPdf(author.request, {
    title,
    description: "A quiet mystery told through the account book of a keeper on a northern island.\n\nOne entry per night.",
    genre: "misterio",
    language: "en",
    withCover: true,
  });
  book = { id, title };
  await author.context().close();
});

afterAll(async () => {
  expect(openContexts.flatMap(policyViolationsOf)).toEqual([]);
  await Promise.all(openContexts.map((context) => context.close()));
  await browser?.close();
});

const heading1 = (page: Page) => page.getByRole("heading", { level: 1 });

describe("a shared book link", () => {
  it("brings a visitor to the book's page (an old slug put right), to sign in from it and back, to download from it, then to its author", async () => {
    const page = await openVisitor();
    const account = await register(page.request, "Marc", "Lector");
    await page.request.post("/api/auth/logout");

    const opened = await page.goto(`/books/${book.id}-an-old-title-from-a-chat`);
    expect(opened?.status()).toBe(200);
    // What a link preview reads, before any script ran.
    const served = await opened!.text();
    expect(served).toContain(`<link rel="canonical" href="${baseUrl}${bookPath(book)}">`);
    expect(served).toContain('<meta property="og:type" content="book">');
    expect(await heading1(page).textContent()).toBe(title);
    await page.waitForURL((url) => url.pathname === bookPath(book));
    expect(await page.title()).toBe(`${title} · Plume`);

    // Signing in from the page comes back to it.
    await page.locator('[data-testid="download-button"]').click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === bookPath(book));
    await page.fill('input[name="username"]', account.username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((url) => url.pathname === bookPath(book));
    await expect.poll(() => page.locator('[data-testid="read-link"]').getAttribute("href")).toBe(`/books/${book.id}/read`);

    const [download] = await Promise.all([page.waitForEvent("download"), page.locator('[data-testid="download-button"]').click()]);
    expect(download.suggestedFilename()).toBe(`${title}.pdf`);
    expect(Buffer.compare(readFileSync((await download.path())!), readFileSync(fixture("book.pdf")))).toBe(0);
    await expect.poll(() => page.locator('[data-testid="book-downloads"]').textContent()).toBe("1");

    await page.locator('[data-testid="author-link"]').click();
    await page.waitForURL((url) => url.pathname === `/authors/${authorId}`);
    expect(await heading1(page).textContent()).toBe("Rosalía de Castro");
    await expect.poll(() => page.locator('[data-testid="author-downloads"]').textContent()).toBe("1");
    await page.locator('[data-testid="book-card"]', { hasText: title }).locator('[data-testid="book-link"]').click();
    await page.waitForURL((url) => url.pathname === bookPath(book));
  });

  it("answers a malformed, unknown or unpublished id with status 404 and the 404 screen", async () => {
    const page = await openVisitor("es-ES");
    // A book that is not here says what may have become of it; any other missing page is the plain 404.
    for (const [path, title] of [
      ["/books/abc", "notFound.book.title"],
      ["/books/99999999999", "notFound.book.title"],
      ["/books/2147483000", "notFound.book.title"],
      ["/authors/not-an-id", "notFound.title"],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await page.getByRole("heading", { name: text("es", title) }).waitFor();
    }
  });
});

/** axe at both widths, nothing wider than a 360 px phone, no raw text keys, screenshots at 390 and 1280 px. */
async function checkScreen(page: Page, name: string, language: Language): Promise<void> {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectAccessible(page, `${name} (${language}, ${size.width} px)`);
  }
  await page.setViewportSize(NARROW_PHONE);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  expect(sideways, `${name} (${language}) scrolls sideways at 360 px`).toBe(false);
  await expectNoRawTranslationKeys(page, `${name} (${language})`);
  await screenshotBoth(page, `pages-${name}-${language}`);
}

describe("the book and author pages in every language", () => {
  it.each(["en", "es", "fr"] as const)("are accessible, fit a phone and are translated: %s", async (language) => {
    const page = await openVisitor();
    // The address names the language, as the pages' hreflang alternates do.
    await page.goto(`${bookPath(book)}?lang=${language}`);
    await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
    await heading1(page).waitFor();
    // Until the session is known to be anonymous the action is the reader's; then it asks to sign in.
    await expect.poll(() => page.locator('[data-testid="read-link"]').textContent()).toBe(text(language, "bookPage.loginToRead"));
    await checkScreen(page, "book", language);

    // Keyboard: the actions are reached with Tab and say what they do.
    await page.locator('[data-testid="read-link"]').focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("download-button");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("share-button");

    await page.goto(`/authors/${authorId}?lang=${language}`);
    await page.locator('[data-testid="book-card"]').first().waitFor();
    await checkScreen(page, "author", language);
  });
});

describe("a Word book's page", () => {
  it("offers the EPUB Plume made first, then the author's DOCX, each with its size, in every language", async () => {
    const author = await openVisitor();
    await register(author.request, "Emilia", "Pardo Bazán");
    const wordTitle = `The Word Book ${Date.now()}`;
    const id = await publishPdf(author.request, { title: wordTitle, language: "en", withCover: true, file: "book.docx" });
    // Made in the background after the upload (docs/product.md#epub).
    await expect
      .poll(async () => ((await (await author.request.get(`/api/books/${id}`)).json()) as { formats: Array<{ format: string }> }).formats.map((each) => each.format), { timeout: 60_000 })
      .toEqual(["docx", "epub"]);
    await author.context().close();

    const page = await openVisitor();
    await register(page.request, "Lucía", "Lectora");
    await page.goto(bookPath({ id, title: wordTitle }));
    await heading1(page).waitFor();
    // "Download EPUB · 16 KB: {title}" (the title for screen readers), whatever the language writes the size as.
    const label = (language: Language, format: string) =>
      new RegExp(`^${text(language, "book.downloadFormat", { format, size: "@@" }).replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("@@", ".+")}: `);
    await checkEveryLanguage(page, "book-word", async (language) => {
      await expect.poll(() => page.locator('[data-testid="download-epub"]').textContent()).toMatch(label(language, "EPUB"));
      expect(await page.locator('[data-testid="download-docx"]').textContent()).toMatch(label(language, "DOCX"));
      expect(await page.getByText(text(language, "bookPage.epubNote")).count()).toBe(1);
    });
    // The EPUB comes first in the tab order, then the DOCX.
    await page.locator('[data-testid="read-link"]').focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("download-epub");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("download-docx");

    const [download] = await Promise.all([page.waitForEvent("download"), page.locator('[data-testid="download-epub"]').click()]);
    expect(download.suggestedFilename()).toBe(`${wordTitle}.epub`);
    expect(readFileSync((await download.path())!).subarray(30, 58).toString("latin1")).toBe("mimetypeapplication/epub+zip");
  });
});
