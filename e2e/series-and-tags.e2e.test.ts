import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { multiPagePdf } from "../test/helpers/book-fixtures.ts";
import { registerAccount } from "./authors.ts";
import { expectAccessible } from "./accessibility.ts";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const SERIES = `The Lighthouse Cycle ${Date.now()}`;
const TAG = `Lighthouses ${Date.now() % 100000}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("series and tags (docs/product.md#series-and-tags)", () => {
  it("an author makes a series of three tagged volumes; readers follow it from book to book, see its page and browse the tag", async () => {
    const author = await newVisitor(browser, baseUrl);
    const page = await author.newPage();
    await registerAccount(page.request, { firstName: "Marta", lastName: "Faro" });

    // A first book, then the series, made on the dashboard (its author part shows once they have published).
    const first = await page.request.post("/api/books", {
      multipart: { title: "Night 1", description: "The lighthouse, night 1.", genre: "novela", language: "en", file: { name: "book.pdf", mimeType: "application/pdf", buffer: await multiPagePdf(2) } },
    });
    expect(first.status()).toBe(201);
    const firstId = ((await first.json()) as { id: number }).id;
    await page.goto("/dashboard");
    const newSeries = page.locator('[data-testid="new-series-form"]');
    await newSeries.getByLabel(text("en", "dashboard.series.titleLabel")).fill(SERIES);
    await newSeries.getByLabel(text("en", "dashboard.series.descriptionLabel")).fill("Three nights at the lighthouse.");
    await newSeries.getByRole("button", { name: text("en", "dashboard.series.create") }).click();
    await page.locator('[data-testid="series-row"]').getByRole("link", { name: SERIES }).waitFor();
    await expectAccessible(page, "dashboard with a series");
    const seriesId = ((await (await page.request.get("/api/account/series")).json()) as Array<{ id: number }>)[0]!.id;

    // The first book put in it by an edit, the second published in it, both by the API; the third by the upload form with its series, volume and tags.
    const placed = await page.request.put(`/api/books/${firstId}`, {
      multipart: { title: "Night 1", description: "The lighthouse, night 1.", genre: "novela", language: "en", seriesId: String(seriesId), seriesVolume: "1", tags: TAG },
    });
    expect(placed.status()).toBe(200);
    const second = await page.request.post("/api/books", {
      multipart: {
        title: "Night 2",
        description: "The lighthouse, night 2.",
        genre: "novela",
        language: "en",
        seriesId: String(seriesId),
        seriesVolume: "2",
        tags: TAG,
        file: { name: "book.pdf", mimeType: "application/pdf", buffer: await multiPagePdf(3) },
      },
    });
    expect(second.status()).toBe(201);
    const ids: number[] = [firstId, ((await second.json()) as { id: number }).id];
    await page.goto("/upload");
    await page.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles({ name: "night-3.pdf", mimeType: "application/pdf", buffer: await multiPagePdf(5) });
    await page.fill('input[name="title"]', "Night 3");
    await page.fill('textarea[name="description"]', "The lighthouse, night 3.");
    await page.selectOption('select[name="genre"]', "novela");
    await page.selectOption('[data-testid="series-select"]', String(seriesId));
    await page.fill('[data-testid="series-volume"]', "3");
    await page.fill('[data-testid="tags-input"]', TAG.slice(0, 6));
    await page.locator('[data-testid="tag-suggestions"]').getByRole("button").first().click();
    await page.locator('[data-testid="tag-chips"]').getByText(TAG).waitFor();
    await expectAccessible(page, "upload form with a series and tags");
    await screenshotBoth(page, "series-upload-form");
    await page.click('[data-testid="publish-button"]');
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const third = await page.locator('[data-testid="author-book"]').filter({ hasText: "Night 3" }).getAttribute("data-book-id");
    ids.push(Number(third));
    await author.close();

    // A reader goes from volume 1 to the next, then to the series' page.
    const reader = await newVisitor(browser, baseUrl);
    const readerPage = await reader.newPage();
    await readerPage.goto(`/books/${ids[0]}`);
    await readerPage.locator('[data-testid="book-series"]').waitFor();
    await checkEveryLanguage(readerPage, "series-book-page", async (language) => {
      await readerPage.getByText(text(language, "bookPage.seriesVolumeOf", { volume: 1 })).waitFor();
      await readerPage.getByRole("link", { name: text(language, "bookPage.nextVolume", { volume: 2, title: "Night 2" }) }).waitFor();
    });
    await readerPage.selectOption('[data-testid="language-select"]', "en");
    await readerPage.getByRole("link", { name: text("en", "bookPage.nextVolume", { volume: 2, title: "Night 2" }) }).click();
    await readerPage.waitForURL((url) => url.pathname.startsWith(`/books/${ids[1]}`));
    await readerPage.getByRole("link", { name: text("en", "bookPage.nextVolume", { volume: 3, title: "Night 3" }) }).waitFor();
    await readerPage.locator('[data-testid="book-series"]').getByRole("link", { name: SERIES }).click();
    await readerPage.waitForURL((url) => url.pathname === `/series/${seriesId}`);
    await checkEveryLanguage(readerPage, "series-page", async (language) => {
      await readerPage.getByRole("heading", { name: text(language, "seriesPage.volumesHeading_other", { formatted: 3 }) }).waitFor();
    });
    const volumes = await readerPage.locator('[data-testid="series-volumes"] li').allTextContents();
    expect(volumes.map((volume) => volume.replace(/.*(Night \d).*/, "$1"))).toEqual(["Night 1", "Night 2", "Night 3"]);

    // The tag's link on a book leads to the catalog's books of that tag.
    await readerPage.goto(`/books/${ids[2]}`);
    await readerPage.locator('[data-testid="book-tags"]').getByRole("link", { name: TAG }).click();
    await readerPage.waitForURL((url) => url.pathname === "/catalog" && url.search.startsWith("?tag="));
    await checkEveryLanguage(readerPage, "catalog-tag", async (language) => {
      await readerPage.getByRole("heading", { name: text(language, "catalog.taggedHeading", { tag: TAG }) }).waitFor();
      await expect.poll(() => readerPage.locator('[data-testid="book-card"]').count()).toBe(3);
    });
    await reader.close();
  });
});
