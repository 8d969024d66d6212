import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { VIEWPORTS, launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

/*
 * Content ratings in the browser (docs/product.md#content-ratings): an author rates a book Explicit at
 * upload; a visitor and a reader who did not choose explicit books get the notice instead of it and do
 * not find it in the catalog; the reader turns the setting on and finds it, badge included. At 390 and
 * 1280 px in English; the notice and the form in Spanish and French are screenshots to look at.
 */

const baseUrl = inject("baseUrl");
const LOCALES: Record<Language, string> = { en: "en-US", es: "es-ES", fr: "fr-FR" };
const PASSWORD = "the-first-password";

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** A new account signed in through the API, in a browser of its own. */
async function signedInVisitor(prefix: string, language: Language): Promise<Page> {
  const context = await newVisitor(browser, baseUrl, LOCALES[language]);
  contexts.push(context);
  const page = await context.newPage();
  const username = `${prefix}_${Date.now()}`;
  const registered = await page.request.post("/api/auth/register", {
    data: { firstName: "Lía", lastName: "Rating", username, email: `${username}@example.test`, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(registered.status()).toBe(201);
  return page;
}

async function visitor(language: Language): Promise<Page> {
  const context = await newVisitor(browser, baseUrl, LOCALES[language]);
  contexts.push(context);
  return context.newPage();
}

const catalogIds = async (page: Page, search: string) => {
  await page.goto(`/catalog?search=${encodeURIComponent(search)}`);
  await page.getByTestId("book-card").first().waitFor();
  return page.getByTestId("book-card").evaluateAll((cards) => cards.map((card) => Number(card.getAttribute("data-book-id"))));
};

describe("content ratings", () => {
  it.each(Object.entries(VIEWPORTS))("an explicit book, rated at upload, is a notice until the reader chooses explicit books (en, %s)", async (_label, size) => {
    const language = "en";
    const author = await signedInVisitor("rating_author", language);
    await author.setViewportSize(size);
    const stamp = Date.now();
    const title = `Lanterns unveiled ${stamp}`;

    // The author rates the book in the upload form.
    await author.goto("/upload");
    await author.getByRole("heading", { level: 1, name: text(language, "upload.title") }).waitFor();
    await author.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles({ name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) });
    await author.getByLabel(text(language, "upload.titleLabel"), { exact: true }).fill(title);
    await author.getByLabel(text(language, "upload.genreLabel"), { exact: true }).selectOption("novela");
    await author.getByLabel(text(language, "upload.descriptionLabel"), { exact: true }).fill("A story for adults only.");
    const ratings = author.getByRole("group", { name: text(language, "contentRatingField.label") });
    expect(await ratings.getByRole("radio", { name: new RegExp(`^${text(language, "contentRating.label.general")}`) }).isChecked()).toBe(true);
    await ratings.getByRole("radio", { name: new RegExp(`^${text(language, "contentRating.label.explicit")}`) }).check();
    await expectAccessible(author, `upload form with ratings (${size.width})`);
    const [published] = await Promise.all([
      author.waitForResponse((response) => response.url().endsWith("/api/books") && response.request().method() === "POST"),
      author.getByTestId("publish-button").click(),
    ]);
    expect(published.status()).toBe(201);
    const book = (await published.json()) as { id: number; contentRating: string };
    expect(book.contentRating).toBe("explicit");
    // A second, Mature book of the same search, which everyone finds with its badge.
    const mature = await author.request.post("/api/books", {
      multipart: { title: `Lanterns after dark ${stamp}`, description: "Dark.", genre: "novela", language: "en", contentRating: "mature", file: { name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) } },
    });
    expect(mature.status()).toBe(201);
    const matureId = ((await mature.json()) as { id: number }).id;

    // A visitor: the notice, with the way to sign in; not in the catalog; the Mature book with its badge.
    const someone = await visitor(language);
    await someone.setViewportSize(size);
    await someone.goto(`/books/${book.id}`);
    await someone.getByTestId("explicit-notice").waitFor();
    expect(await someone.getByRole("heading", { level: 1 }).textContent()).toBe(text(language, "contentRating.gate.title"));
    expect(await someone.content()).not.toContain(title);
    await someone.getByTestId("explicit-notice").getByRole("link", { name: text(language, "contentRating.gate.signIn"), exact: true }).waitFor();
    await expectAccessible(someone, `explicit notice for a visitor (${size.width})`);
    const found = await catalogIds(someone, `lanterns ${stamp}`);
    expect(found).toContain(matureId);
    expect(found).not.toContain(book.id);
    const badge = someone.locator(`[data-book-id="${matureId}"]`).getByTestId("content-rating");
    expect(await badge.textContent()).toContain(text(language, "contentRating.label.mature"));
    await expectAccessible(someone, `catalog with a rating badge (${size.width})`);

    // A reader who has not chosen explicit books: the notice points to the setting; turned on there, the book shows.
    const reader = await signedInVisitor("rating_reader", language);
    await reader.setViewportSize(size);
    await reader.goto(`/books/${book.id}`);
    const notice = reader.getByTestId("explicit-notice");
    await notice.waitFor();
    await notice.getByRole("link", { name: text(language, "contentRating.gate.settings"), exact: true }).click();
    await reader.waitForURL(/\/settings#explicit-books$/);
    const toggle = reader.getByRole("checkbox", { name: text(language, "settings.explicit.showExplicit") });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await reader.getByText(text(language, "settings.explicit.savedOn"), { exact: true }).waitFor();
    await expectAccessible(reader, `settings with explicit books (${size.width})`);
    await reader.goto(`/books/${book.id}`);
    await reader.getByTestId("book-page").waitFor();
    expect(await reader.getByTestId("book-facts").getByTestId("content-rating").textContent()).toContain(text(language, "contentRating.label.explicit"));
    expect(await catalogIds(reader, `lanterns ${stamp}`)).toContain(book.id);
    await screenshotBoth(reader, `content-ratings-explicit-book-${language}`);
  });

  it.each(["es", "fr"] as const)("shows the notice, the form's ratings and the setting in %s", async (language) => {
    const author = await signedInVisitor(`rating_${language}`, language);
    const upload = await author.request.post("/api/books", {
      multipart: { title: `Noche ${Date.now()}`, description: "Explícito.", genre: "novela", language, contentRating: "explicit", file: { name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) } },
    });
    expect(upload.status()).toBe(201);
    const { id } = (await upload.json()) as { id: number };

    const someone = await visitor(language);
    await someone.goto(`/books/${id}`);
    await expect.poll(() => someone.getAttribute("html", "lang")).toBe(language);
    await someone.getByTestId("explicit-notice").waitFor();
    expect(await someone.getByRole("heading", { level: 1 }).textContent()).toBe(text(language, "contentRating.gate.title"));
    await expectNoRawTranslationKeys(someone, `explicit notice (${language})`);
    await expectAccessible(someone, `explicit notice (${language})`);
    await screenshotBoth(someone, `content-ratings-notice-${language}`);

    await author.goto("/upload");
    await author.getByRole("group", { name: text(language, "contentRatingField.label") }).waitFor();
    await expectNoRawTranslationKeys(author, `upload form (${language})`);
    await screenshotBoth(author, `content-ratings-upload-${language}`);
    await author.goto("/settings#explicit-books");
    await author.getByRole("checkbox", { name: text(language, "settings.explicit.showExplicit") }).waitFor();
    await screenshotBoth(author, `content-ratings-settings-${language}`);
  });
});
