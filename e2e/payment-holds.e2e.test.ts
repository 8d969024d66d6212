import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { expectAccessible } from "./accessibility.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { VIEWPORTS, launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { type Language, text } from "./locales.ts";

/*
 * Payouts held with a reason (docs/decisions/0090): the author's timeline says a payment is held while
 * the book is under review, and cancelled once it is removed, with a link to the statement of reasons,
 * in three languages at both widths. The author has no wallet, so the server's payout worker never
 * sends the payment whatever the test's timing: the hold is what the timeline tells first.
 */

const baseUrl = inject("baseUrl");
const PASSWORD = "a-good-password";

let browser: Browser;
let author: BrowserContext;
let admin: BrowserContext;
let bookId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  author = await newVisitor(browser, baseUrl);
  const username = `held_${Date.now()}`;
  expect((await author.request.post("/api/auth/register", { data: { firstName: "Irene", lastName: "Retenida", username, password: PASSWORD, confirmPassword: PASSWORD } })).status()).toBe(201);
  const upload = await author.request.post("/api/books", {
    multipart: {
      title: `Veinte copias ${Date.now()}`,
      description: "Un libro que llega a su primer hito bajo revisión.",
      genre: "novela",
      language: "es",
      file: { name: "book.pdf", mimeType: "application/pdf", buffer: readFileSync(fixture("book.pdf")) },
    },
  });
  expect(upload.status()).toBe(201);
  bookId = ((await upload.json()) as { id: number }).id;
  for (let reader = 1; reader <= 20; reader += 1) {
    const readerContext = await newVisitor(browser, baseUrl);
    const name = `held_reader_${Date.now()}_${reader}`;
    await readerContext.request.post("/api/auth/register", { data: { firstName: "Lector", lastName: String(reader), username: name, password: PASSWORD, confirmPassword: PASSWORD } });
    expect((await readerContext.request.post(`/api/books/${bookId}/download`, { headers: { "X-Forwarded-For": `198.51.100.${100 + reader}` } })).status()).toBe(200);
    await readerContext.close();
  }
  admin = await newVisitor(browser, baseUrl);
  await signInAsAdmin(admin.request);
}, 120_000);
afterAll(async () => {
  await author?.close();
  await admin?.close();
  await browser?.close();
});

/** The dashboard in each language: the payment's sentence checked, axe at both widths, no raw keys, screenshots. */
async function checkDashboardInEveryLanguage(page: Page, name: string, check: (language: Language) => Promise<void>): Promise<void> {
  await page.goto("/dashboard");
  await checkEveryLanguage(page, name, check);
}

describe("an author's payment while the book is under review", () => {
  it("is held with the decision's facts, then cancelled by the removal, each linked to its statement", async () => {
    const hidingFacts = "A rights holder's notice says the book is their novel.";
    const hide = await admin.request.post(`/api/admin/books/${bookId}/moderation`, { data: { action: "hide", ground: "law-copyright", basis: "notice", facts: hidingFacts } });
    expect(hide.status()).toBe(201);
    const hidingId = ((await hide.json()) as { id: number }).id;
    const page = await author.newPage();

    await checkDashboardInEveryLanguage(page, "dashboard-payment-held", async (language) => {
      const item = page.getByTestId("payment-item").first();
      await item.waitFor();
      const wait = item.getByTestId("payment-wait");
      await expect.poll(() => wait.getAttribute("data-reason")).toBe("under-review");
      expect(await item.textContent()).toContain(text(language, "payments.status.held"));
      expect(await wait.textContent()).toContain(hidingFacts);
      expect(await wait.textContent()).not.toContain(text(language, "payments.wait.sending"));
      expect(await wait.getByTestId("payment-statement-link").getAttribute("href")).toBe(`/dashboard#moderation-decision-${hidingId}`);
    });

    const removalFacts = "The rights holder showed the first edition of the novel.";
    const removal = await admin.request.post(`/api/admin/books/${bookId}/moderation`, { data: { action: "remove", ground: "law-copyright", basis: "notice", facts: removalFacts } });
    expect(removal.status()).toBe(201);
    const removalId = ((await removal.json()) as { id: number }).id;

    await checkDashboardInEveryLanguage(page, "dashboard-payment-cancelled", async (language) => {
      const item = page.getByTestId("payment-item").first();
      await item.getByTestId("payment-cancellation").waitFor();
      expect(await item.getAttribute("data-status")).toBe("cancelled");
      expect(await item.textContent()).toContain(text(language, "payments.status.cancelled"));
      expect(await item.getByTestId("payment-cancellation").textContent()).toContain(removalFacts);
    });
    // The link leads to the statement on the same dashboard.
    await page.getByTestId("payment-cancellation").getByTestId("payment-statement-link").click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#moderation-decision-${removalId}`);
    await page.locator(`#moderation-decision-${removalId}`).waitFor();
    expect(await page.locator(`#moderation-decision-${removalId}`).textContent()).toContain(removalFacts);
    await page.close();

    // The admin's diagnostics: the cancelled payment with its removal, and the removed book's row with what it paid.
    const adminPage = await admin.newPage();
    await adminPage.goto("/dashboard");
    await adminPage.locator('[data-testid="tab-admin"]').click();
    const cancelled = adminPage.locator('[data-testid="payout-queue-cancelled"] [data-testid="queued-payment"]').filter({ hasText: removalFacts });
    await cancelled.waitFor();
    expect(await cancelled.textContent()).toContain(`#${removalId}`);
    // The removed book needs attention: the books tab lists it by default (docs/decisions/0107).
    await adminPage.goto("/admin/books");
    const row = adminPage.locator(`[data-testid="diagnostic-row"][data-book-id="${bookId}"] [data-testid="diagnostic-moderation"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(text("en", "moderation.states.removed-legal"));
    expect(await row.textContent()).toContain(text("en", "admin.fields.cancelledAmount"));
    for (const size of Object.values(VIEWPORTS)) {
      await adminPage.setViewportSize(size);
      await expectAccessible(adminPage, `admin diagnostics with a cancelled payment (${size.width} px)`);
    }
    await screenshotBoth(adminPage, "admin-payment-cancelled");
    await adminPage.close();
  });
});
