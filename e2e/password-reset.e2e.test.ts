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

/** The newest link mailed to the address once it is one to this path: the mail goes out after the answer. */
async function mailedLinkTo(address: string, pathname: string): Promise<URL> {
  let link: URL | undefined;
  await expect.poll(async () => (link = await linkMailedTo(mailDir, address).catch(() => undefined))?.pathname, { timeout: 10_000 }).toBe(pathname);
  return link!;
}

const journeys: Array<{ language: Language; locale: string }> = [
  { language: "es", locale: "es-ES" },
  { language: "en", locale: "en-US" },
];

describe.each(journeys)("a reader who forgot the password, browser in $language", ({ language, locale }) => {
  it("asks from the login screen, opens the mailed link, sets a new password and signs in with it", async () => {
    const username = `reset_${language}_${Date.now()}`;
    const email = `${username}@example.test`;
    const registration = await newVisitor(browser, baseUrl, locale);
    const registered = await registration.newPage();
    await registered.goto("/register");
    await registered.fill('input[name="firstName"]', "Lucía");
    await registered.fill('input[name="lastName"]', "Pérez");
    await registered.fill('input[name="username"]', username);
    await registered.fill('input[name="email"]', email);
    await registered.fill('input[name="password"]', "the-old-password");
    await registered.fill('input[name="confirmPassword"]', "the-old-password");
    await registered.click('[data-testid="register-submit"]');
    await registered.locator('[data-testid="welcome"]').waitFor();
    // Only a verified address gets a reset link: proven through the link mailed at registration.
    const verify = await mailedLinkTo(email, "/verify-email");
    await registered.goto(`${verify.pathname}${verify.search}`);
    await registered.locator('[data-testid="verify-email-result"][data-outcome="verified"]').waitFor();

    const context = await newVisitor(browser, baseUrl, locale);
    const page = await context.newPage();
    await page.goto("/login");
    await page.click('[data-testid="forgot-password-link"]');
    await page.waitForURL("**/forgot-password");
    await page.fill('input[name="email"]', email);
    await screenshotBoth(page, `password-reset-forgot-${language}`);
    await page.click('[data-testid="forgot-password-submit"]');
    const sent = page.locator('[data-testid="forgot-password-sent"]');
    await sent.waitFor();
    expect(await page.locator("h1").textContent()).toBe(text(language, "passwordReset.forgot.sentTitle"));
    await screenshotBoth(page, `password-reset-sent-${language}`);

    const link = await mailedLinkTo(email, "/reset-password");
    await page.goto(`${link.pathname}${link.search}`);
    await page.fill('input[name="password"]', "the-new-password");
    await page.fill('input[name="confirmPassword"]', "the-new-password");
    await screenshotBoth(page, `password-reset-new-password-${language}`);
    await page.click('[data-testid="reset-password-submit"]');
    await page.locator('[data-testid="reset-password-login"]').waitFor();
    expect(await page.locator("h1").textContent()).toBe(text(language, "passwordReset.reset.doneTitle"));
    await screenshotBoth(page, `password-reset-done-${language}`);

    // The registration's session, on another device, was signed out by the change.
    await registered.goto("/dashboard");
    await registered.waitForURL("**/login**");

    await page.click('[data-testid="reset-password-login"]');
    await page.fill('input[name="username"]', email);
    await page.fill('input[name="password"]', "the-new-password");
    await page.click('[data-testid="login-submit"]');
    await page.locator('[data-testid="welcome"]').waitFor();

    // The link works once, and says so as its page opens: no field is offered for a used link.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText(text(language, "passwordReset.errors.used")).first().waitFor();
    expect(await page.locator('input[name="password"]').count()).toBe(0);
    await screenshotBoth(page, `password-reset-used-${language}`);
    await context.close();
    await registration.close();
  });
});
