import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mailsTo } from "../test/helpers/mail-files.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { expectAccessible } from "./accessibility.ts";
import { launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");

let browser: Browser;
let author: BrowserContext;
let reader: BrowserContext;
let voter: BrowserContext;
let bookId: number;
const REVIEW = "Una novela paciente.\nLa segunda mitad se gana cada página.";
const EDITED = "Una novela paciente y honda.\nLa segunda mitad se gana cada página.";
const REPLY = "Gracias por leerla con tanta calma.";

beforeAll(async () => {
  browser = await launchBrowser();
  author = await newVisitor(browser, baseUrl);
  await registerAccount(author.request, { firstName: "Rosa", lastName: "Autora" });
  bookId = await publishPdf(author.request, { title: `El faro y sus lectores ${Date.now()}` });
  reader = await newVisitor(browser, baseUrl);
  const readerEmail = `lea_${Date.now()}@example.test`;
  await registerAccount(reader.request, { firstName: "Lea", lastName: "Moreau", email: readerEmail });
  voter = await newVisitor(browser, baseUrl);
  await registerAccount(voter.request, { firstName: "Tomás", lastName: "Votante" });
});
afterAll(async () => {
  await Promise.all([author, reader, voter].map((context) => context?.close()));
  await browser?.close();
});

const reviewsOf = (page: Page) => page.getByTestId("book-reviews");

/** The page in English: the admin's account is shared by every journey, and its own language may be another's last choice. */
async function inEnglish(page: Page): Promise<void> {
  if ((await page.getAttribute("html", "lang")) !== "en") await page.selectOption('[data-testid="language-select"]', "en");
  await expect.poll(() => page.getAttribute("html", "lang")).toBe("en");
}

/** The reviewed book's title, as the author published it. */
async function bookTitle(): Promise<string> {
  return ((await (await author.request.get(`/api/books/${bookId}`)).json()) as { title: string }).title;
}

/** The reviews load as the reader nears them (client/src/features/books/lazy-book-reviews.tsx): scroll down as a reader does. */
async function toReviews(page: Page): Promise<void> {
  await page.getByTestId("book-page").waitFor();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await reviewsOf(page).waitFor();
}

describe("reviews, end to end (docs/product.md#reviews)", () => {
  it("a reader rates, changes the rating, writes and edits a review; the author replies; another finds it helpful and reports it; in en, es and fr", async () => {
    const page = await reader.newPage();
    await page.goto(`/books/${bookId}`);
    // Stars: given, then changed, never locked.
    await page.getByTestId("rate-4").click();
    await expect.poll(() => page.getByTestId("rate-4").getAttribute("aria-checked")).toBe("true");
    await page.getByTestId("rate-2").click();
    await expect.poll(() => page.getByTestId("rate-2").getAttribute("aria-checked")).toBe("true");

    // A review needs the book taken: the section says so, then offers the form once it is read.
    await toReviews(page);
    await reviewsOf(page).getByText(text("en", "reviewList.takeFirst")).waitFor();
    expect((await reader.request.post(`/api/books/${bookId}/read`)).status()).toBe(200);
    await page.reload();
    await toReviews(page);
    await page.getByTestId("review-write").click();
    await page.getByTestId("review-text").fill("Corta");
    await page.getByTestId("review-submit").click();
    await page.getByText(text("en", "validation.reviewTooShort")).waitFor();
    await page.getByTestId("review-text").fill(REVIEW);
    // The fifth star, as a reader clicks it: the label around its radio.
    await page.locator("label", { has: page.getByTestId("review-star-5") }).click();
    await page.getByTestId("review-submit").click();
    await expect.poll(() => reviewsOf(page).getByTestId("review-body").first().textContent()).toBe(REVIEW);
    await expect.poll(() => page.getByTestId("rating-average").textContent()).toContain("5.0");

    await page.getByTestId("review-edit").click();
    await page.getByTestId("review-text").fill(EDITED);
    await page.getByTestId("review-submit").click();
    await expect.poll(() => reviewsOf(page).getByTestId("review-body").first().textContent()).toBe(EDITED);
    await expect.poll(() => reviewsOf(page).getByTestId("review").first().textContent()).toContain(text("en", "reviewList.edited"));

    // The author replies, once, under the review.
    const authorPage = await author.newPage();
    await authorPage.goto(`/books/${bookId}`);
    await toReviews(authorPage);
    await authorPage.getByTestId("reply-open").click();
    await authorPage.getByTestId("reply-text").fill(REPLY);
    await authorPage.getByTestId("reply-submit").click();
    await authorPage.getByTestId("review-reply").getByText(REPLY).waitFor();

    // Another reader finds it helpful, takes it back, finds it helpful again; then reports it.
    const voterPage = await voter.newPage();
    await voterPage.goto(`/books/${bookId}`);
    await toReviews(voterPage);
    const helpful = voterPage.getByTestId("review-helpful");
    await helpful.click();
    await expect.poll(() => helpful.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => helpful.textContent()).toBe(text("en", "reviewList.helpfulCount", { n: 1 }));
    await helpful.click();
    await expect.poll(() => helpful.getAttribute("aria-pressed")).toBe("false");
    await helpful.click();
    await expect.poll(() => helpful.textContent()).toBe(text("en", "reviewList.helpfulCount", { n: 1 }));
    await voterPage.getByTestId("review-report").click();
    await voterPage.waitForURL(/\/report\?review=/);
    await voterPage.getByRole("heading", { level: 1, name: text("en", "report.titleReview") }).waitFor();

    // The reader's page, with the review, the reply and the count, in every language at both widths.
    await page.reload();
    await toReviews(page);
    await reviewsOf(page).getByText(REPLY).waitFor();
    await checkEveryLanguage(page, "book-reviews", async (language) => {
      await reviewsOf(page).getByRole("heading", { name: new RegExp(`^${text(language, "reviewList.heading")}`) }).waitFor();
      await reviewsOf(page).getByText(text(language, "reviewList.helpfulCount", { n: 1 })).waitFor();
      await reviewsOf(page).scrollIntoViewIfNeeded();
    });
    await authorPage.reload();
    await toReviews(authorPage);
    await authorPage.getByTestId("review-reply").waitFor();
    await screenshotBoth(authorPage, "book-reviews-author");
    for (const context of [reader, author, voter]) expect(policyViolationsOf(context)).toEqual([]);
  });

  it("the admin removes a reported review from the moderation tab, the log shows it, its writer reads the statement on the dashboard; the reader deletes theirs and takes back the stars", async () => {
    const other = await newVisitor(browser, baseUrl);
    const email = `spam_${Date.now()}@example.test`;
    await registerAccount(other.request, { firstName: "Spam", lastName: "Bot", email });
    expect((await other.request.post(`/api/books/${bookId}/read`)).status()).toBe(200);
    const words = "Compra relojes baratos en example.test ahora.";
    const written = await other.request.put(`/api/books/${bookId}/review`, { data: { rating: 1, text: words } });
    const reviewId = ((await written.json()) as { review: { id: number } }).review.id;
    const reporterEmail = `reporter_${Date.now()}@example.test`;
    const reported = await voter.request.post("/api/notices", {
      data: { category: "spam", reviewId, url: `${baseUrl}/books/${bookId}`, explanation: "This review is an advertisement for a watch shop.", name: "Tomás Votante", email: reporterEmail, goodFaith: true },
    });
    expect(reported.status()).toBe(201);

    // The admin finds the review in the moderation tab's queue and removes it with the statement of reasons.
    const admin = await newVisitor(browser, baseUrl);
    await signInAsAdmin(admin.request);
    const adminPage = await admin.newPage();
    await adminPage.goto("/admin/moderation");
    await inEnglish(adminPage);
    const group = adminPage.getByTestId("moderation-group").filter({ has: adminPage.getByTestId("moderation-review-text").getByText(words) });
    await group.waitFor();
    await group.getByRole("button", { name: text("en", "admin.moderation.actions.remove-review") }).click();
    const dialog = adminPage.getByRole("alertdialog");
    await dialog.getByLabel(text("en", "admin.moderation.dialog.ground"), { exact: true }).selectOption("terms-spam");
    await dialog.getByLabel(text("en", "admin.moderation.dialog.facts"), { exact: true }).fill("The review advertises watches.");
    expect(await dialog.getByLabel(text("en", "admin.moderation.dialog.basis"), { exact: true }).inputValue()).toBe("notice");
    await dialog.getByTestId("moderation-confirm").click();
    await dialog.waitFor({ state: "detached" });
    await group.waitFor({ state: "detached" });
    // The log keeps it, with the book, the writer and the review's first words.
    const logged = adminPage.getByTestId("moderation-log-entry").first();
    await expect.poll(async () => (await logged.getAttribute("data-action")) ?? "").toBe("remove-review");
    expect(await logged.textContent()).toContain(text("en", "admin.moderation.log.reviewOf", { author: "Spam Bot", title: await bookTitle() }));
    expect(await logged.getByTestId("moderation-log-review").textContent()).toBe(words);
    await logged.getByRole("button", { name: text("en", "admin.moderation.actions.restore-review") }).waitFor();
    await screenshotBoth(adminPage, "admin-moderation-review-removed");

    const [statement] = await mailsTo(mailDir, email);
    expect(statement!.text).toContain("The review advertises watches.");
    expect((await mailsTo(mailDir, reporterEmail))[0]!.text).toContain("We removed the review");

    // Its writer, who never published, reads the statement on the dashboard, with the way to appeal.
    const writerPage = await other.newPage();
    await writerPage.goto("/dashboard");
    await inEnglish(writerPage);
    const said = writerPage.getByTestId("moderation-statement").filter({ hasText: "The review advertises watches." });
    await said.waitFor();
    expect(await said.getAttribute("data-action")).toBe("remove-review");
    expect(await said.textContent()).toContain(text("en", "moderation.statements.aboutReview", { title: await bookTitle() }));
    await said.getByRole("button", { name: text("en", "moderation.statements.appealAction") }).waitFor();
    await expectAccessible(writerPage, "a review's removal on its writer's dashboard");
    await screenshotBoth(writerPage, "dashboard-review-removed");

    const page = await reader.newPage();
    await page.goto(`/books/${bookId}`);
    await toReviews(page);
    await reviewsOf(page).getByTestId("review").first().waitFor();
    expect(await reviewsOf(page).getByTestId("review").count()).toBe(1);
    // The language tour left the reader's choice on French.
    const language = (await page.getAttribute("html", "lang")) as Language;
    page.on("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("review-delete").click();
    await reviewsOf(page).getByText(text(language, "reviewList.empty")).waitFor();
    await page.getByTestId("remove-rating").click();
    await expect.poll(() => page.getByTestId("rating-average").textContent()).toBe(text(language, "book.rating.none"));
    for (const context of [other, admin]) expect(policyViolationsOf(context)).toEqual([]);
    await Promise.all([other.close(), admin.close()]);
  });
});
