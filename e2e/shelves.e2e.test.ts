import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { multiPagePdf } from "../test/helpers/book-fixtures.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { gotoSettingsSection, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const LONG_TITLE = "Tres páginas para seguir";
const SHORT_TITLE = "Un libro para mañana";

let browser: Browser;
let longBookId: number;
let shortBookId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await newVisitor(browser, baseUrl);
  await registerAccount(author.request, { firstName: "Estela", lastName: "Estantes" });
  longBookId = await publishPdf(author.request, { title: LONG_TITLE, pdf: await multiPagePdf(3), withCover: true });
  shortBookId = await publishPdf(author.request, { title: SHORT_TITLE, description: "Para la estantería." });
  await author.close();
});
afterAll(() => browser?.close());

const shelfOf = async (page: Page, bookId: number) =>
  ((await (await page.request.get("/api/shelves")).json()) as { shelves: Record<string, string> }).shelves[String(bookId)];

const drawnPage = (page: Page, number: number) => page.locator(`[data-testid="pdf-page"][data-page="${number}"][data-drawn="true"]`);

describe("shelves (docs/product.md#shelves)", () => {
  it("a reader shelves a book from its card, reading moves a book to Reading, its end to Read; Continue reading, My books and public shelves", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    // The reader's controls slide away as a page turns: axe must not catch them half faded.
    await page.emulateMedia({ reducedMotion: "reduce" });
    const { username } = await registerAccount(page.request, { firstName: "Rita", lastName: "Lectora" });

    // One click on a card: Want to read, from the reader's one map of shelves.
    const shelfReads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/shelves" && request.method() === "GET") shelfReads.push(request.url());
    });
    await page.goto("/catalog");
    const card = page.locator(`[data-testid="book-card"][data-book-id="${shortBookId}"]`);
    const want = card.getByTestId("shelf-want");
    expect(await want.textContent()).toBe(`${text("en", "shelves.wantToRead")}: ${SHORT_TITLE}`);
    await want.click();
    await expect.poll(() => card.getByTestId("shelf-control").getAttribute("data-shelf")).toBe("want");
    // The card shows the choice at once; the server has it once the call returns.
    await expect.poll(() => shelfOf(page, shortBookId)).toBe("want");
    expect(shelfReads.length).toBe(1);
    await checkEveryLanguage(page, "shelves-catalog", async (language) => {
      await card.getByText(text(language, "shelves.names.want")).waitFor();
    });
    // The tour leaves the account in French: back to English for what follows.
    await page.selectOption('[data-testid="language-select"]', "en");

    // The book page has the control; opening the book puts it on Reading.
    await page.goto(`/books/${longBookId}`);
    await page.getByTestId("book-page-shelf").getByTestId("shelf-want").waitFor();
    await page.goto(`/books/${longBookId}/read`);
    await drawnPage(page, 1).waitFor();
    expect(await shelfOf(page, longBookId)).toBe("reading");
    const saved = page.waitForResponse((response) => response.url().endsWith(`/api/books/${longBookId}/read/position`) && response.status() === 204);
    await page.getByTestId("reader-content").focus();
    await page.keyboard.press("ArrowRight");
    await drawnPage(page, 2).waitFor();
    await saved;

    // Continue reading on the home and on the book's page.
    await page.goto("/");
    const item = page.getByTestId("continue-reading-item");
    await item.getByText(text("en", "shelves.continuePage", { page: 2 })).waitFor();
    expect(await item.getAttribute("href")).toBe(`/books/${longBookId}/read`);
    await checkEveryLanguage(page, "shelves-home-continue-reading", async (language) => {
      await item.getByText(text(language, "shelves.continuePage", { page: 2 })).waitFor();
    });
    await page.selectOption('[data-testid="language-select"]', "en");
    await page.goto(`/books/${longBookId}`);
    await page.getByTestId("continue-reading").waitFor();
    await checkEveryLanguage(page, "shelves-book-page", async (language) => {
      await page.getByTestId("continue-reading").getByText(text(language, "shelves.continuePage", { page: 2 })).waitFor();
      await page.getByTestId("shelf-button").getByText(text(language, "shelves.names.reading")).waitFor();
    });
    await page.selectOption('[data-testid="language-select"]', "en");

    // The last page offers Mark as read.
    await page.goto(`/books/${longBookId}/read`);
    await drawnPage(page, 2).waitFor();
    await page.getByTestId("reader-content").focus();
    await page.keyboard.press("End");
    await drawnPage(page, 3).waitFor();
    const panel = page.getByTestId("book-end-panel");
    await panel.waitFor();
    await checkEveryLanguage(page, "shelves-book-end", async (language) => {
      await panel.getByText(text(language, "reader.bookEnd.title")).waitFor();
    });
    await page.selectOption('[data-testid="language-select"]', "en");
    await panel.getByRole("button", { name: text("en", "reader.bookEnd.markAsRead") }).click();
    await panel.getByTestId("book-end-read").waitFor();
    expect(await panel.getByTestId("book-end-read").textContent()).toBe(text("en", "reader.bookEnd.marked"));
    expect(await shelfOf(page, longBookId)).toBe("read");
    // Opening it again keeps it on Read, and it leaves Continue reading.
    expect((await page.request.post(`/api/books/${longBookId}/read`)).status()).toBe(200);
    expect(await shelfOf(page, longBookId)).toBe("read");

    // My books: what was taken, and each shelf.
    await page.goto("/");
    await page.getByTestId("user-menu").click();
    await page.getByRole("link", { name: text("en", "nav.myBooks") }).click();
    await page.waitForURL((url) => url.pathname === "/my-books");
    await page.getByTestId("taken-how").getByText(text("en", "myBooks.channels.read")).waitFor();
    expect(await page.getByTestId("continue-reading-item").count()).toBe(0);
    await checkEveryLanguage(page, "shelves-my-books", async (language) => {
      await page.getByRole("heading", { level: 1, name: text(language, "myBooks.title") }).waitFor();
      await page.getByTestId("taken-how").getByText(text(language, "myBooks.channels.read")).waitFor();
    });
    await page.getByTestId("my-books-tab-want").click();
    await page.getByRole("tabpanel").getByRole("heading", { name: SHORT_TITLE }).waitFor();
    await screenshotBoth(page, "shelves-my-books-want-fr");
    await page.selectOption('[data-testid="language-select"]', "en");

    // Public shelves: off until switched on in the settings.
    const visitor = await newVisitor(browser, baseUrl);
    const visitorPage = await visitor.newPage();
    expect((await visitorPage.goto(`/readers/${username}`))!.status()).toBe(404);
    await gotoSettingsSection(page, "public-shelves");
    await page.getByTestId("shelves-public").check();
    await page.getByTestId("public-shelves-link").waitFor();
    const answer = (await visitorPage.goto(`/readers/${username}`))!;
    expect(answer.status()).toBe(200);
    expect(await visitorPage.locator('meta[property="og:type"]').getAttribute("content")).toBe("profile");
    expect(await visitorPage.locator('meta[property="og:title"]').getAttribute("content")).toContain(username);
    await visitorPage.getByTestId("public-shelf-read").getByRole("heading", { name: LONG_TITLE }).waitFor();
    await checkEveryLanguage(visitorPage, "shelves-public-page", async (language) => {
      await visitorPage.getByRole("heading", { level: 1, name: text(language, "readerPage.title", { username }) }).waitFor();
    });
    expect(await visitorPage.content()).not.toContain("Lectora");
    expect(policyViolationsOf(context)).toEqual([]);
    await visitor.close();
    await context.close();
  });
});
