import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";
import { linkMailedTo } from "../test/helpers/mail-files.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const journeys: Array<{ language: Language; locale: string }> = [
  { language: "en", locale: "en-US" },
  { language: "es", locale: "es-ES" },
];

describe.each(journeys)("a new visitor whose browser speaks $language", ({ language, locale }) => {
  it("registers and is welcomed as new, signs out, signs in again and is welcomed back by name", async () => {
    const context = await newVisitor(browser, baseUrl, locale);
    const page = await context.newPage();
    const username = `e2e_${language}_${Date.now()}`;
    const password = "a-good-password";

    await page.goto("/register");
    await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
    await screenshotBoth(page, `accounts-register-${language}`);
    await page.fill('input[name="firstName"]', "Lucía");
    await page.fill('input[name="lastName"]', "Martín");
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="email"]', `${username}@example.test`);
    await page.fill('input[name="password"]', password);
    await page.fill('input[name="confirmPassword"]', password);
    await page.click('[data-testid="register-submit"]');

    const welcome = page.locator('[data-testid="welcome"]');
    await welcome.waitFor();
    // Just registered: welcomed as new, not "back" (docs/product.md#accounts).
    expect(await welcome.textContent()).toBe(text(language, "home.welcomeNew", { name: "Lucía" }));
    await screenshotBoth(page, `accounts-home-${language}`);

    await page.click('[data-testid="user-menu"]');
    await page.click('[data-testid="logout"]');
    await page.locator('[data-testid="welcome"]').waitFor({ state: "detached" });
    await page.getByRole("link", { name: text(language, "nav.login") }).first().waitFor();

    await page.goto("/login");
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', "wrong-password");
    await page.click('[data-testid="login-submit"]');
    await page.getByText(text(language, "errors.invalid_credentials")).first().waitFor();
    await screenshotBoth(page, `accounts-login-error-${language}`);

    await page.fill('input[name="password"]', password);
    await page.click('[data-testid="login-submit"]');
    await welcome.waitFor();
    // Signed in again: now welcomed back.
    await expect.poll(() => welcome.textContent()).toBe(text(language, "home.welcome", { name: "Lucía" }));
    await context.close();
  });
});

describe("an address's verification link (docs/decisions/0054)", () => {
  it("opened signed out proves nothing and asks to sign in; signed in, the link completes", async () => {
    const context = await newVisitor(browser, baseUrl, "en-US");
    const page = await context.newPage();
    const username = `e2e_claim_${Date.now()}`;
    const email = `${username}@example.test`;
    const password = "a-good-password";
    const registered = await page.request.post("/api/auth/register", {
      data: { firstName: "Lucía", lastName: "Martín", username, email, password, confirmPassword: password },
    });
    expect(registered.status()).toBe(201);
    expect((await page.request.post("/api/auth/logout")).status()).toBe(204);

    const link = await linkMailedTo(mailDir, email);
    await page.goto(`${link.pathname}${link.search}`);
    const result = page.locator('[data-testid="verify-email-result"][data-outcome="signInFirst"]');
    await result.waitFor();
    expect(await result.textContent()).toContain(text("en", "verifyEmail.page.signInFirst.title"));
    await screenshotBoth(page, "accounts-verify-sign-in-first-en");

    await page.click('[data-testid="verify-email-sign-in"]');
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', password);
    await page.click('[data-testid="login-submit"]');
    // The sign-in screen brings the person back to the link, which is spent now.
    await page.locator('[data-testid="verify-email-result"][data-outcome="verified"]').waitFor();
    expect(new URL(page.url()).pathname).toBe("/verify-email");
    expect((await (await page.request.get("/api/auth/user")).json()) as { emailVerified: boolean }).toMatchObject({ emailVerified: true });
    await context.close();
  });
});

describe("languages and routes", () => {
  it("keeps a chosen language across reloads", async () => {
    const context = await newVisitor(browser, baseUrl, "en-US");
    const page = await context.newPage();
    await page.goto("/login");
    await page.selectOption('[data-testid="language-select"]', "fr");
    await expect.poll(() => page.getAttribute("html", "lang")).toBe("fr");
    await page.reload();
    await expect.poll(() => page.getAttribute("html", "lang")).toBe("fr");
    await page.getByRole("heading", { name: text("fr", "auth.login.title") }).waitFor();
    await screenshotBoth(page, "accounts-login-fr");
    await context.close();
  });

  it("shows the 404 screen for an unknown path, sent with status 404", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    for (const path of ["/no/such/page", "/catalog/extra", "/books/1/read/x"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await page.getByRole("heading", { name: text("en", "notFound.title") }).waitFor();
    }
    await screenshotBoth(page, "not-found-en");
    const screen = await page.goto("/catalog?search=x");
    expect(screen?.status()).toBe(200);
    await page.getByRole("heading", { name: text("en", "catalog.title"), level: 1 }).waitFor();
    await context.close();
  });

  it("sends an anonymous visitor of a protected page to sign in, and back there afterwards", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    const username = `e2e_redirect_${Date.now()}`;
    const response = await page.request.post("/api/auth/register", {
      data: { firstName: "Ana", lastName: "Ruiz", username, password: "a-good-password", confirmPassword: "a-good-password" },
    });
    expect(response.status()).toBe(201);
    await page.request.post("/api/auth/logout");

    await page.goto("/dashboard");
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === "/dashboard");
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', "a-good-password");
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await context.close();
  });
});
