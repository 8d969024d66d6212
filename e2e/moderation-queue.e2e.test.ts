import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const PASSWORD = "a-good-password";
const LOCALES: Record<Language, string> = { en: "en-US", es: "es-ES", fr: "fr-FR" };

let browser: Browser;
let author: BrowserContext;
const books: Record<"es" | "fr", { id: number; title: string }> = {} as never;

async function register(context: BrowserContext, prefix: string): Promise<void> {
  const username = `${prefix}_${Date.now()}`;
  const registered = await context.request.post("/api/auth/register", {
    data: { firstName: "Irene", lastName: "Copista", username, email: `${username}@example.test`, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(registered.status()).toBe(201);
}

beforeAll(async () => {
  browser = await launchBrowser();
  author = await newVisitor(browser, baseUrl);
  await register(author, "queued");
  for (const language of ["es", "fr"] as const) {
    const title = `Un libro en la cola ${language} ${Date.now()}`;
    const upload = await author.request.post("/api/books", {
      multipart: { title, description: "Un libro denunciado.", genre: "novela", language: "es", file: { name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) } },
    });
    expect(upload.status()).toBe(201);
    books[language] = { id: ((await upload.json()) as { id: number }).id, title };
  }
});
afterAll(async () => {
  await author?.close();
  await browser?.close();
});

/** The page in this language: the browser's locale picks it for a visitor; a signed-in account's own setting may differ. */
async function inLanguage(page: Page, language: Language): Promise<void> {
  if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
  await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
}

async function expectAccessibleAtBothWidths(page: Page, name: string): Promise<void> {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectAccessible(page, `${name}, ${size.width} px`);
    const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(scrollsSideways, `${name} scrolls sideways at ${size.width} px`).toBe(false);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await expectNoRawTranslationKeys(page, name);
}

/** Fills the statement of reasons in the open dialog and confirms it. */
async function decide(page: Page, language: Language, facts: string, ground?: string): Promise<void> {
  const dialog = page.getByRole("alertdialog");
  if (ground) await dialog.getByLabel(text(language, "admin.moderation.dialog.ground"), { exact: true }).selectOption(ground);
  await dialog.getByLabel(text(language, "admin.moderation.dialog.facts"), { exact: true }).fill(facts);
  await dialog.getByTestId("moderation-confirm").click();
  await dialog.waitFor({ state: "detached" });
}

describe("a reader reports a book from the reader; the admin hides it from the moderation tab, and restores it", () => {
  it.each(["es", "fr"] as const)("in %s, at both widths, axe clean", async (language) => {
    const book = books[language];
    // A signed-in reader reports what they read, from the reader's own Report link.
    const reader = await newVisitor(browser, baseUrl, LOCALES[language]);
    await register(reader, `reporter_${language}`);
    const readerPage = await reader.newPage();
    await readerPage.goto(`/books/${book.id}/read`);
    await inLanguage(readerPage, language);
    await readerPage.getByRole("link", { name: text(language, "reader.report"), exact: true }).click();
    await readerPage.waitForURL(/\/report\?book=/);
    expect(await readerPage.getByLabel(text(language, "report.url"), { exact: true }).inputValue()).toBe(`${baseUrl}/books/${book.id}/read`);
    await readerPage.getByText(text(language, "report.categories.spam.label")).click();
    await readerPage.getByLabel(text(language, "report.explanation"), { exact: true }).fill("Cada página de este libro es un anuncio de un casino en línea.");
    await readerPage.getByTestId("report-good-faith").check();
    await readerPage.getByRole("button", { name: text(language, "report.submit") }).click();
    await readerPage.getByTestId("report-sent").waitFor();
    await reader.close();

    // The admin finds it in the moderation tab, counted on the tab.
    const admin = await newVisitor(browser, baseUrl, LOCALES[language]);
    await signInAsAdmin(admin.request);
    const page = await admin.newPage();
    await page.goto("/admin/moderation");
    await inLanguage(page, language);
    const tab = page.getByRole("link", { name: new RegExp(`^${text(language, "admin.tabs.moderation")}`) });
    expect(await tab.getAttribute("aria-current")).toBe("page");
    await page.getByTestId("admin-moderation-count").waitFor();
    const group = page.getByRole("article", { name: book.title });
    await group.waitFor();
    expect(await group.textContent()).toContain(text(language, "report.categories.spam.label"));
    await expectAccessibleAtBothWidths(page, `moderation queue (${language})`);
    await screenshotBoth(page, `admin-moderation-queue-${language}`);

    // Hiding asks for the statement of reasons first.
    await group.getByRole("button", { name: text(language, "admin.moderation.actions.hide") }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByTestId("moderation-confirm").click();
    await dialog.getByText(text(language, "validation.moderationGroundInvalid")).waitFor();
    await expectAccessibleAtBothWidths(page, `moderation dialog with errors (${language})`);
    await screenshotBoth(page, `admin-moderation-dialog-${language}`);
    await decide(page, language, "Cada página del libro anuncia un casino: es publicidad.", "terms-spam");
    await group.getByText(text(language, "moderation.states.hidden")).waitFor();

    const visitor = await newVisitor(browser, baseUrl);
    const visitorPage = await visitor.newPage();
    expect((await visitorPage.goto(`/books/${book.id}`))?.status()).toBe(404);

    // The admin reads the hidden book in the reader.
    await group.getByTestId("moderation-open-book").click();
    await page.waitForURL(`**/books/${book.id}/read`);
    await expect.poll(() => page.getByTestId("reader-title").textContent()).toBe(book.title);
    await page.goBack();

    // Restoring settles the notices: the group leaves the queue, and the log keeps both decisions.
    await page.getByRole("article", { name: book.title }).getByRole("button", { name: text(language, "admin.moderation.actions.restore") }).click();
    await decide(page, language, "Revisado: el anuncio era del propio autor y ya no está.");
    await page.getByRole("article", { name: book.title }).waitFor({ state: "detached" });
    const log = page.getByTestId("moderation-log-entry");
    await expect.poll(async () => (await log.first().textContent()) ?? "").toContain(book.title);
    expect(await log.first().textContent()).toContain(text(language, "moderation.actions.restore"));
    await screenshotBoth(page, `admin-moderation-restored-${language}`);
    expect((await visitorPage.goto(`/books/${book.id}`))?.status()).toBe(200);
    expect(policyViolationsOf(admin)).toEqual([]);
    await visitor.close();
    await admin.close();
  });
});

describe("a reported book its author deletes", () => {
  it.each(["en", "es", "fr"] as const)("stays in the queue marked as deleted, and the admin removes it in %s (docs/decisions/0112)", async (language) => {
    // An author of their own: a copyright removal is a strike, and the shared author must not collect three.
    const uploader = await newVisitor(browser, baseUrl);
    await register(uploader, `deleting_${language}`);
    const title = `Un libro borrado ${language} ${Date.now()}`;
    const upload = await uploader.request.post("/api/books", {
      multipart: { title, description: "Un libro denunciado y borrado.", genre: "novela", language: "es", file: { name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) } },
    });
    const { id } = (await upload.json()) as { id: number };
    const reported = await uploader.request.post("/api/notices", {
      data: {
        category: "copyright",
        bookId: id,
        url: `${baseUrl}/books/${id}`,
        explanation: "Cada capítulo copia una novela publicada en 2019.",
        name: "Rosa Editora",
        email: "rosa@example.test",
        goodFaith: true,
        originalWork: "La novela, 2019",
        rightsHolder: "Editorial Rosa",
        sworn: true,
      },
    });
    expect(reported.status()).toBe(201);
    expect((await uploader.request.delete(`/api/books/${id}`)).status()).toBe(204);
    await uploader.close();

    const admin = await newVisitor(browser, baseUrl, LOCALES[language]);
    await signInAsAdmin(admin.request);
    const page = await admin.newPage();
    await page.goto("/admin/moderation");
    await inLanguage(page, language);
    const group = page.getByRole("article", { name: title });
    await group.getByText(text(language, "admin.moderation.deletedByAuthor"), { exact: true }).waitFor();
    expect(await group.getByTestId("moderation-open-book").count()).toBe(0);
    await expectAccessibleAtBothWidths(page, `moderation queue with a deleted book (${language})`);
    await screenshotBoth(page, `admin-moderation-deleted-book-${language}`);
    expect(await group.getByTestId("moderation-hide").count()).toBe(0);
    await group.getByTestId("moderation-remove").click();
    await decide(page, language, "Cada capítulo copia una novela publicada en 2019.", "law-copyright");
    await group.waitFor({ state: "detached" });
    expect(policyViolationsOf(admin)).toEqual([]);
    await admin.close();
  });
});

describe("the transparency page", () => {
  it.each(["es", "fr"] as const)("shows this month's notices and actions in %s, from the footer, axe clean at both widths", async (language) => {
    const visitor = await newVisitor(browser, baseUrl, LOCALES[language]);
    const page = await visitor.newPage();
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: text(language, "footer.support.transparency"), exact: true }).click();
    await page.waitForURL("**/transparency");
    const outcomes = page.getByRole("table", { name: text(language, "transparency.outcomes") });
    await outcomes.waitFor();
    // The newest month first: this one, with the notices the journeys above sent.
    const received = Number((await outcomes.locator("tbody tr").first().locator("td").first().textContent())?.replace(/\D/g, ""));
    expect(received).toBeGreaterThan(0);
    expect(await outcomes.locator("tbody tr").count()).toBe(12);
    await expectAccessibleAtBothWidths(page, `transparency (${language})`);
    await screenshotBoth(page, `transparency-${language}`);
    await visitor.close();
  });
});
