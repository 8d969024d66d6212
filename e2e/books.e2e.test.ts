import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** A visitor of the given browser language who registers through the API and is signed in. */
async function signedInVisitor(locale: string, firstName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newVisitor(browser, baseUrl, locale);
  const page = await context.newPage();
  const username = `${firstName.toLowerCase()}_${Date.now()}`;
  const response = await page.request.post("/api/auth/register", {
    data: { firstName, lastName: "Prueba", username, password: "a-good-password", confirmPassword: "a-good-password" },
  });
  expect(response.status()).toBe(201);
  return { context, page };
}

describe("publishing and reading a book, in Spanish", () => {
  const title = `Mañana en París ${Date.now()}`;

  it("an author publishes a PDF with a cover; a reader finds it without accents, downloads the same bytes and rates it", async () => {
    const author = await signedInVisitor("es-ES", "Lucía");
    await author.page.goto("/upload");
    await author.page.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles(fixture("book.pdf"));
    await author.page.locator('[data-testid="cover-dropzone"] input[type=file]').setInputFiles(fixture("cover.jpg"));
    await author.page.fill('input[name="title"]', title);
    await author.page.fill('textarea[name="description"]', "Una novela sobre la mañana en París.");
    await author.page.selectOption('select[name="genre"]', "novela");
    await author.page.selectOption('select[name="language"]', "es");
    await screenshotBoth(author.page, "books-upload-es");
    await author.page.click('[data-testid="publish-button"]');
    await author.page.waitForURL((url) => url.pathname === "/dashboard");

    const reader = await signedInVisitor("es-ES", "Marc");
    await reader.page.goto("/catalog");
    await reader.page.fill('[data-testid="catalog-search"]', "manana en paris");
    await reader.page.keyboard.press("Enter");
    await reader.page.waitForURL((url) => url.searchParams.get("search") === "manana en paris");
    const card = reader.page.locator('[data-testid="book-card"]', { hasText: title });
    await card.waitFor();
    await screenshotBoth(reader.page, "books-catalog-search-es");

    const [download] = await Promise.all([
      reader.page.waitForEvent("download"),
      card.locator('[data-testid="download-button"]').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${title}.pdf`);
    const saved = await download.path();
    expect(Buffer.compare(readFileSync(saved!), readFileSync(fixture("book.pdf")))).toBe(0);

    await card.locator('[data-testid="rate-4"]').click();
    // A rating can be changed (docs/product.md#reviews): the star stays enabled and is checked once saved.
    await expect.poll(() => card.locator('[data-testid="rate-4"]').getAttribute("aria-checked")).toBe("true");
    await expect.poll(async () => (await card.locator('[data-testid="rating-average"]').textContent()) ?? "").toContain("4");
    await screenshotBoth(reader.page, "books-rated-es");

    // The author's own download does not move the count; the reader's one did.
    const [ownDownload] = await Promise.all([
      author.page.waitForEvent("download"),
      author.page.goto(`/catalog?search=${encodeURIComponent("manana en paris")}`).then(() =>
        author.page.locator('[data-testid="book-card"]', { hasText: title }).locator('[data-testid="download-button"]').click(),
      ),
    ]);
    await ownDownload.path();
    const books = await (await reader.page.request.get(`/api/books?search=${encodeURIComponent(title)}`)).json();
    expect(books[0]).toMatchObject({ title, downloadCount: 1, rating: 4, reviewCount: 1 });

    await author.context.close();
    await reader.context.close();
  });

  it("an anonymous visitor browses the landing page and catalog, and is sent to sign in to download", async () => {
    const context = await newVisitor(browser, baseUrl, "es-ES");
    const page = await context.newPage();
    await page.goto("/");
    await screenshotBoth(page, "books-landing-es");
    await page.goto(`/catalog?search=${encodeURIComponent("manana")}`);
    const card = page.locator('[data-testid="book-card"]').first();
    await card.waitFor();
    await card.locator('[data-testid="download-button"]').click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByText(text("es", "toasts.loginToDownload.title")).first().waitFor();
    await context.close();
  });

  it("a French visitor sees a card's rating without stars to give, is asked to log in to rate on the book's page, and comes back signed in, with stars to give", async () => {
    const context = await newVisitor(browser, baseUrl, "fr-FR");
    const page = await context.newPage();
    const username = `e2e_rate_${Date.now()}`;
    const registered = await page.request.post("/api/auth/register", {
      data: { firstName: "Zoé", lastName: "Martin", username, password: "a-good-password", confirmPassword: "a-good-password" },
    });
    expect(registered.status()).toBe(201);
    await page.request.post("/api/auth/logout");

    await page.goto(`/catalog?search=${encodeURIComponent("manana")}`);
    const card = page.locator('[data-testid="book-card"]').first();
    await card.locator('[data-testid="rating-average"]').waitFor();
    expect(await card.locator('[data-testid="rate-1"]').count()).toBe(0);
    await card.locator('[data-testid="book-link"]').click();
    const prompt = page.getByRole("link", { name: new RegExp(`^${text("fr", "book.rating.loginToRate")}`) });
    await prompt.waitFor();
    await screenshotBoth(page, "books-login-to-rate-fr");
    const bookPath = new URL(page.url()).pathname;
    await prompt.click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === bookPath);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', "a-good-password");
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((url) => url.pathname === bookPath);
    await page.locator('[data-testid="rate-1"]').waitFor();
    await context.close();
  });
});
