import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { linkMailedTo } from "../test/helpers/mail-files.ts";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const journeys: Array<{ language: Language; locale: string }> = [
  { language: "fr", locale: "fr-FR" },
  { language: "es", locale: "es-ES" },
  { language: "en", locale: "en-US" },
];

describe.each(journeys)("a new author whose browser speaks $language", ({ language, locale }) => {
  it("registers with an e-mail, is told it is unproven, opens the mailed link and sees it verified", async () => {
    const context = await newVisitor(browser, baseUrl, locale);
    const page = await context.newPage();
    const username = `verify_${language}_${Date.now()}`;
    const email = `${username}@example.test`;
    const password = "a-good-password";

    await page.goto("/register");
    await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
    await page.fill('input[name="firstName"]', "Zoé");
    await page.fill('input[name="lastName"]', "Martin");
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', password);
    await page.fill('input[name="confirmPassword"]', password);
    await page.click('[data-testid="register-submit"]');
    await page.locator('[data-testid="welcome"]').waitFor();

    await page.goto("/dashboard");
    const notice = page.locator('[data-testid="email-verification-notice"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(text(language, "verifyEmail.notice.body", { email }));
    await screenshotBoth(page, `email-verification-notice-${language}`);

    // The server has no SMTP_URL here: it wrote the mail, in the language of the interface, as an .eml file.
    const link = await linkMailedTo(mailDir, email);
    expect(link.pathname).toBe("/verify-email");
    await page.goto(`${link.pathname}${link.search}`);
    const result = page.locator('[data-testid="verify-email-result"][data-outcome="verified"]');
    await result.waitFor();
    expect(await result.textContent()).toContain(text(language, "verifyEmail.page.verified.title"));
    await screenshotBoth(page, `email-verification-verified-${language}`);

    await page.click('[data-testid="verify-email-dashboard"]');
    await page.locator('[data-testid="tab-author"]').waitFor();
    expect(await notice.count()).toBe(0);

    // The link works once.
    await page.goto(`${link.pathname}${link.search}`);
    await page.locator('[data-testid="verify-email-result"][data-outcome="used"]').waitFor();
    await screenshotBoth(page, `email-verification-used-${language}`);
    await context.close();
  });
});
