import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mailsTo } from "../test/helpers/mail-files.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
const LOCALES: Record<Language, string> = { en: "en-US", es: "es-ES", fr: "fr-FR" };

let browser: Browser;
let author: BrowserContext;
let authorEmail: string;
let bookId: number;
let bookTitle: string;

beforeAll(async () => {
  browser = await launchBrowser();
  author = await newVisitor(browser, baseUrl);
  const username = `moderated_${Date.now()}`;
  authorEmail = `${username}@example.test`;
  await registerAccount(author.request, { firstName: "Irene", lastName: "Copista", username, email: authorEmail });
  bookTitle = `El faro prestado ${Date.now()}`;
  bookId = await publishPdf(author.request, { title: bookTitle, description: "Una novela que no es suya." });
});
afterAll(async () => {
  await author?.close();
  await browser?.close();
});

describe("a visitor reports a book", () => {
  it.each(["en", "es", "fr"] as const)("from its page, in %s, at both widths, and gets the reference and the acknowledgement", async (language) => {
    const visitor = await newVisitor(browser, baseUrl, LOCALES[language]);
    const page = await visitor.newPage();
    await page.goto(`/books/${bookId}`);
    await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
    await page.getByRole("link", { name: text(language, "bookPage.report"), exact: true }).click();
    await page.waitForURL(/\/report\?book=/);
    await page.getByRole("heading", { level: 1, name: text(language, "report.titleOf", { title: bookTitle }) }).waitFor();
    // The book's own address, with its title's slug, as the page shows it.
    expect(await page.getByLabel(text(language, "report.url"), { exact: true }).inputValue()).toMatch(new RegExp(`^${baseUrl}/books/${bookId}-el-faro-prestado-`));

    // Copyright asks for more; sending without the boxes ticked names them.
    await page.getByText(text(language, "report.categories.copyright.label")).click();
    await page.getByLabel(text(language, "report.explanation"), { exact: true }).fill("Es mi novela, copiada página a página desde la primera edición.");
    await page.getByLabel(text(language, "report.originalWork"), { exact: true }).fill("El faro, Editorial Marea, 2019");
    await page.getByLabel(text(language, "report.rightsHolder"), { exact: true }).fill("Editorial Marea");
    await page.getByLabel(text(language, "report.name"), { exact: true }).fill("Lucía Autora");
    const email = `reporter.${language}.${Date.now()}@example.test`;
    await page.getByLabel(text(language, "report.email"), { exact: true }).fill(email);
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `report form (${language}, ${size.width} px)`);
      const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(scrollsSideways, `report form scrolls sideways at ${size.width} px`).toBe(false);
    }
    await expectNoRawTranslationKeys(page, `report form (${language})`);
    await page.getByRole("button", { name: text(language, "report.submit") }).click();
    await page.getByText(text(language, "validation.noticeSwornRequired")).waitFor();
    await screenshotBoth(page, `report-form-errors-${language}`);

    await page.getByLabel(text(language, "report.sworn")).check();
    await page.getByTestId("report-good-faith").check();
    await page.getByRole("button", { name: text(language, "report.submit") }).click();
    await page.getByTestId("report-sent").waitFor();
    await expectAccessible(page, `report sent (${language})`);
    const [mail] = await mailsTo(mailDir, email);
    expect(mail!.subject).toContain(bookTitle);
    expect(policyViolationsOf(visitor)).toEqual([]);
    await visitor.close();
  });
});

describe("the admin hides the reported book, and restores it", () => {
  it("the book leaves the catalog, the author reads why on the dashboard and by mail, and it comes back", async () => {
    const admin = await newVisitor(browser, baseUrl);
    await signInAsAdmin(admin.request);
    const decide = (body: object) => admin.request.post(`/api/admin/books/${bookId}/moderation`, { data: body });
    const facts = "A rights holder's notice shows the book is their novel.";
    expect((await decide({ action: "hide", ground: "law-copyright", basis: "notice", facts })).status()).toBe(201);

    const visitor = await newVisitor(browser, baseUrl);
    const visitorPage = await visitor.newPage();
    const response = await visitorPage.goto(`/books/${bookId}`);
    expect(response?.status()).toBe(404);
    await visitorPage.goto(`/catalog?search=${encodeURIComponent(bookTitle)}`);
    await visitorPage.getByRole("heading", { level: 1 }).first().waitFor();
    await expect.poll(() => visitorPage.locator(`[data-testid="book-card"] a[href^="/books/${bookId}"]`).count()).toBe(0);

    const [mail] = await mailsTo(mailDir, authorEmail);
    expect(mail!.text).toContain(facts);
    const page = await author.newPage();
    for (const language of ["en", "es", "fr"] as const) {
      await page.goto("/dashboard");
      if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
      await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
      const badge = page.getByTestId("moderation-state");
      await badge.waitFor();
      expect(await badge.textContent()).toContain(text(language, "moderation.states.hidden"));
      const statement = page.getByTestId("moderation-statement").first();
      await statement.waitFor();
      expect(await statement.textContent()).toContain(text(language, "moderation.grounds.law-copyright"));
      expect(await statement.textContent()).toContain(facts);
      for (const size of Object.values(VIEWPORTS)) {
        await page.setViewportSize(size);
        await expectAccessible(page, `dashboard with a statement (${language}, ${size.width} px)`);
      }
    }
    await screenshotBoth(page, "dashboard-moderation-statement");

    expect((await decide({ action: "restore", basis: "notice", facts: "The notice was withdrawn by its sender." })).status()).toBe(201);
    expect((await visitorPage.goto(`/books/${bookId}`))?.status()).toBe(200);
    await visitor.close();
    await admin.close();
  });

  it("a removed book's page says so, in the status and on the screen", async () => {
    const admin = await newVisitor(browser, baseUrl);
    await signInAsAdmin(admin.request);
    const spamId = await publishPdf(author.request, { title: "Publicidad", description: "Un anuncio." });
    const removed = await admin.request.post(`/api/admin/books/${spamId}/moderation`, { data: { action: "remove", ground: "law-illegal-content", basis: "notice", facts: "A court order names this book." } });
    expect(removed.status()).toBe(201);
    const visitor = await newVisitor(browser, baseUrl, LOCALES.fr);
    const page = await visitor.newPage();
    expect((await page.goto(`/books/${spamId}`))?.status()).toBe(451);
    await page.getByRole("heading", { level: 1, name: text("fr", "bookPage.removedLegal.title") }).waitFor();
    await expectAccessible(page, "removed book (fr)");
    await visitor.close();
    await admin.close();
  });
});
