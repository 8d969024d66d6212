import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mailsTo } from "../test/helpers/mail-files.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

/** An author contests decisions about their books from the dashboard, in each language (docs/product.md#appeals). */

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
const FACTS = "A rights holder's notice shows the book is their novel.";

let browser: Browser;
let author: BrowserContext;
let admin: BrowserContext;
let authorEmail: string;
/** One book per language, each under a decision the author contests in that language. */
const books = {} as Record<Language, { id: number; title: string; decisionId: number }>;

beforeAll(async () => {
  browser = await launchBrowser();
  author = await newVisitor(browser, baseUrl);
  admin = await newVisitor(browser, baseUrl);
  await signInAsAdmin(admin.request);
  authorEmail = `appealing_${Date.now()}@example.test`;
  await registerAccount(author.request, { firstName: "Irene", lastName: "Apelante", email: authorEmail });
  // English takes the counter-notice (a copyright removal); Spanish and French an appeal of a hidden book.
  const decisions: Record<Language, object> = {
    en: { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS },
    es: { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: "Cada página repite el mismo anuncio." },
    fr: { action: "hide", ground: "terms-not-own-work", basis: "notice", facts: "Un signalement dit que ce livre n'est pas le vôtre." },
  };
  for (const language of ["en", "es", "fr"] as const) {
    const title = `Appeal ${language} ${Date.now()}`;
    const id = await publishPdf(author.request, { title, language });
    const decided = await admin.request.post(`/api/admin/books/${id}/moderation`, { data: decisions[language] });
    expect(decided.status()).toBe(201);
    books[language] = { id, title, decisionId: ((await decided.json()) as { id: number }).id };
  }
});
afterAll(async () => {
  expect([author, admin].flatMap(policyViolationsOf)).toEqual([]);
  await author?.close();
  await admin?.close();
  await browser?.close();
});

async function dashboardIn(page: Page, language: Language): Promise<void> {
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto("/dashboard");
  if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
  await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
}

const statementAbout = (page: Page, title: string) => page.getByTestId("moderation-statement").filter({ hasText: title });

describe("an author contests a decision from the dashboard", () => {
  it.each(["en", "es", "fr"] as const)("in %s, at both widths: the form names what is missing, then the appeal shows under review", async (language) => {
    const { title } = books[language];
    const counter = language === "en";
    const page = await author.newPage();
    await dashboardIn(page, language);
    const statement = statementAbout(page, title);
    await statement.waitFor();
    await statement.getByRole("button", { name: text(language, counter ? "moderation.statements.counterNoticeAction" : "moderation.statements.appealAction") }).click();
    const form = statement.getByTestId("appeal-form");
    await form.waitFor();
    const submit = form.getByRole("button", { name: text(language, counter ? "moderation.appealForm.submitCounterNotice" : "moderation.appealForm.submitAppeal") });
    await submit.click();
    await form.getByText(text(language, "validation.appealStatementTooShort")).waitFor();
    if (counter) await form.getByText(text(language, "validation.appealSwornRequired")).waitFor();
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `appeal form (${language}, ${size.width} px)`);
      const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(scrollsSideways, `appeal form scrolls sideways at ${size.width} px`).toBe(false);
    }
    await expectNoRawTranslationKeys(page, `appeal form (${language})`);
    await screenshotBoth(page, `appeal-form-errors-${language}`);

    await form.getByLabel(text(language, "moderation.appealForm.statement"), { exact: true }).fill("I wrote this book myself; the decision confused it with another.");
    if (counter) {
      await form.getByLabel(text(language, "moderation.appealForm.legalName"), { exact: true }).fill("Irene Apelante Ruiz");
      await form.getByLabel(text(language, "moderation.appealForm.postalAddress"), { exact: true }).fill("Calle Mayor 1, 28013 Madrid, Spain");
      await form.getByLabel(text(language, "moderation.appealForm.phone"), { exact: true }).fill("+34 600 000 000");
      await form.getByLabel(text(language, "moderation.appealForm.swornMistake")).check();
      await form.getByLabel(text(language, "moderation.appealForm.consentJurisdiction")).check();
    }
    await submit.click();
    const state = statement.getByTestId("appeal-state");
    await state.waitFor();
    expect(await state.getAttribute("data-status")).toBe("open");
    await expectAccessible(page, `appeal under review (${language})`);
    const [received] = await mailsTo(mailDir, authorEmail);
    expect(received!.subject).toContain(title);
    await page.close();
  });
});

describe("the admin decides the appeals", () => {
  it("a granted counter-notice brings the book back and the author reads the outcome; a rejected appeal keeps the book hidden", async () => {
    // The admin decides in the moderation tab, in French, at a phone's width.
    const adminPage = await admin.newPage();
    await adminPage.goto("/admin/moderation");
    if ((await adminPage.getAttribute("html", "lang")) !== "fr") await adminPage.selectOption('[data-testid="language-select"]', "fr");
    await expect.poll(() => adminPage.getAttribute("html", "lang")).toBe("fr");
    await adminPage.setViewportSize(VIEWPORTS.phone);
    const decideIn = async (language: Language, button: "grant" | "reject", facts: string) => {
      const card = adminPage.getByTestId("admin-appeal").filter({ hasText: books[language].title });
      await card.waitFor();
      await card.getByLabel(text("fr", "admin.appeals.facts"), { exact: true }).fill(facts);
      await card.getByTestId(`appeal-${button}`).click();
      await card.waitFor({ state: "detached" });
    };
    await adminPage.getByTestId("admin-appeal").first().waitFor();
    await expectAccessible(adminPage, "appeals in the moderation tab (fr, 390 px)");
    await screenshotBoth(adminPage, "admin-appeals-fr");
    await decideIn("en", "grant", "The author showed the signed publishing contract.");
    await decideIn("es", "reject", "Cada página sigue repitiendo el anuncio.");
    await adminPage.close();

    const visitor = await newVisitor(browser, baseUrl);
    const visitorPage = await visitor.newPage();
    expect((await visitorPage.goto(`/books/${books.en.id}`))?.status()).toBe(200);
    expect((await visitorPage.goto(`/books/${books.es.id}`))?.status()).toBe(404);
    await visitor.close();

    const page = await author.newPage();
    await dashboardIn(page, "es");
    const grantedState = statementAbout(page, books.en.title).filter({ has: page.getByTestId("appeal-state") }).getByTestId("appeal-state");
    await grantedState.waitFor();
    expect(await grantedState.getAttribute("data-status")).toBe("granted");
    const rejectedState = statementAbout(page, books.es.title).getByTestId("appeal-state");
    expect(await rejectedState.getAttribute("data-status")).toBe("rejected");
    expect(await rejectedState.textContent()).toContain("Cada página sigue repitiendo el anuncio.");
    await expectAccessible(page, "appeals decided (es)");
    await screenshotBoth(page, "appeals-decided-es");
    await page.close();
  });
});
