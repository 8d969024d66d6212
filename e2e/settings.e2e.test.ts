import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { linkMailedTo } from "../test/helpers/mail-files.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
const LOCALES: Record<Language, string> = { en: "en-US", es: "es-ES", fr: "fr-FR" };
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Account {
  username: string;
  email: string;
  password: string;
}

function newAccount(prefix: string): Account {
  const username = `${prefix}_${Date.now()}`;
  return { username, email: `${username}@example.test`, password: "the-first-password" };
}

/** A visitor of its own (cookies, language), registered or signed in through the API, on /settings. */
async function signedIn(account: Account, language: Language, how: "register" | "login"): Promise<Page> {
  const context = await newVisitor(browser, baseUrl, LOCALES[language]);
  const page = await context.newPage();
  const answer =
    how === "register"
      ? await page.request.post("/api/auth/register", {
          data: { firstName: "Inès", lastName: "Durand", username: account.username, email: account.email, password: account.password, confirmPassword: account.password },
        })
      : await page.request.post("/api/auth/login", { data: { username: account.username, password: account.password } });
  expect(answer.ok()).toBe(true);
  await page.goto("/settings");
  await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
  await page.getByRole("heading", { level: 1, name: text(language, "settings.title") }).waitFor();
  return page;
}

/** Another browser signed in to the account, for the list of devices to show and to sign out. */
async function otherBrowser(account: Account, userAgent?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, userAgent });
  const answer = await context.request.post("/api/auth/login", { data: { username: account.username, password: account.password } });
  expect(answer.ok()).toBe(true);
  return context;
}

/** GET /api/auth/user answers 200 either way: the account when signed in, null when not (docs/decisions/0067). */
const isSignedIn = async (context: BrowserContext) => {
  const response = await context.request.get("/api/auth/user");
  expect(response.status()).toBe(200);
  return (await response.json()) !== null;
};

async function canSignIn(username: string, password: string): Promise<boolean> {
  const context = await browser.newContext({ baseURL: baseUrl });
  const answer = await context.request.post("/api/auth/login", { data: { username, password } });
  await context.close();
  return answer.ok();
}

const section = (page: Page, language: Language, titleKey: string) => page.getByRole("region", { name: text(language, titleKey), exact: true });

describe("the settings screen", () => {
  it("changes names, e-mail and password, signs devices out, turns mail off, exports the data and deletes the account", async () => {
    const language = "en";
    const account = newAccount("settings");
    const page = await signedIn(account, language, "register");
    const laptop = await otherBrowser(account);
    const firefox = await otherBrowser(account, FIREFOX_ON_WINDOWS);
    // The list of devices was read when the screen opened, before those two signed in.
    await page.reload();

    // Names.
    const profile = section(page, language, "settings.profile.title");
    await profile.getByLabel(text(language, "settings.profile.firstName")).fill("Ada");
    await profile.getByLabel(text(language, "settings.profile.lastName")).fill("Byron");
    await profile.getByTestId("profile-submit").click();
    await profile.getByText(text(language, "settings.profile.saved")).waitFor();
    // The menu's avatar was "I" for Inès: the whole app shows the saved names at once.
    expect(await page.getByTestId("user-menu").textContent()).toMatch(/^A/);

    // E-mail: the new address is unproven, and its link is on its way.
    const newEmail = `new_${account.email}`;
    const email = section(page, language, "settings.email.title");
    await email.getByLabel(text(language, "settings.email.newEmail")).fill(newEmail);
    await email.getByLabel(text(language, "settings.currentPassword")).fill(account.password);
    await email.getByTestId("email-submit").click();
    await email.getByText(text(language, "settings.email.sent", { email: newEmail })).waitFor();
    expect(await email.getByTestId("current-email").textContent()).toContain(text(language, "settings.email.unverified"));
    await expect.poll(async () => (await linkMailedTo(mailDir, newEmail).catch(() => undefined))?.pathname, { timeout: 10_000 }).toBe("/verify-email");

    // Devices: this one, and the two others, named by their browsers.
    const devices = section(page, language, "settings.sessions.title");
    await expect.poll(() => devices.getByTestId("account-session").count()).toBe(3);
    expect(await devices.getByTestId("account-session").first().textContent()).toContain(text(language, "settings.sessions.thisDevice"));
    await screenshotBoth(page, "settings-en");
    const firefoxName = text(language, "settings.sessions.browserOn", { browser: "Firefox", platform: "Windows" });
    await devices.getByRole("button", { name: new RegExp(`^${text(language, "settings.sessions.signOut")}\\W+${firefoxName}$`) }).click();
    await devices.getByText(text(language, "settings.sessions.signedOut")).waitFor();
    await expect.poll(() => devices.getByTestId("account-session").count()).toBe(2);
    expect(await isSignedIn(firefox)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(true);

    // Password: the other browser signed in before is signed out, the old password no longer works.
    const password = section(page, language, "settings.password.title");
    await password.getByLabel(text(language, "settings.currentPassword")).fill(account.password);
    await password.getByLabel(text(language, "settings.password.password"), { exact: true }).fill("the-second-password");
    await password.getByLabel(text(language, "settings.password.confirmPassword")).fill("the-second-password");
    await password.getByTestId("password-submit").click();
    await password.getByText(text(language, "settings.password.changed")).waitFor();
    await expect.poll(() => devices.getByTestId("account-session").count()).toBe(1);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(page.context())).toBe(true);
    expect(await canSignIn(account.username, account.password)).toBe(false);
    expect(await canSignIn(account.username, "the-second-password")).toBe(true);
    account.password = "the-second-password";

    // Payment mail: off, and still off after a reload.
    const notifications = section(page, language, "settings.notifications.title");
    const paymentMail = notifications.getByRole("checkbox", { name: text(language, "settings.notifications.paymentCompleted") });
    expect(await paymentMail.isChecked()).toBe(true);
    await paymentMail.click();
    await notifications.getByText(text(language, "settings.notifications.savedOff")).waitFor();
    await page.reload();
    expect(await section(page, language, "settings.notifications.title").getByRole("checkbox").isChecked()).toBe(false);
    // The devices list arrives after the sections around it are drawn and pushes the ones below it down: a
    // click at the page's end aimed before it lands would hit whatever the shift brings under the pointer.
    await expect.poll(() => section(page, language, "settings.sessions.title").getByTestId("account-session").count()).toBeGreaterThan(0);

    // The export: a JSON file with the profile as it now is.
    const downloading = page.waitForEvent("download");
    await page.getByTestId("export-data").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^plume-${account.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as { profile: Record<string, unknown> };
    expect(exported.profile).toMatchObject({ username: account.username, firstName: "Ada", lastName: "Byron", email: newEmail });

    // Deleting: a wrong password keeps the dialog open; the right one deletes, signs out and goes home.
    await page.getByTestId("delete-account").click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByTestId("deletion-preview").waitFor();
    expect(await dialog.textContent()).toContain(text(language, "settings.delete.books_zero"));
    const deletionPassword = dialog.getByLabel(text(language, "settings.delete.password"));
    await deletionPassword.fill("not-the-password");
    await dialog.getByTestId("confirm-delete-account").click();
    await dialog.getByText(text(language, "errors.wrong_password")).waitFor();
    await screenshotBoth(page, "settings-delete-wrong-password-en");
    expect(await canSignIn(account.username, account.password)).toBe(true);
    await deletionPassword.fill(account.password);
    await deletionPassword.press("Enter");
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText(text(language, "settings.delete.deleted")).waitFor();
    await page.getByRole("link", { name: text(language, "nav.login") }).first().waitFor();
    expect(await canSignIn(account.username, account.password)).toBe(false);

    expect(policyViolationsOf(page.context())).toEqual([]);
    await Promise.all([page.context().close(), laptop.close(), firefox.close()]);
  });

  it("on a phone in Spanish: the dashboard leads here, refusals are in Spanish and the deletion preview says what happens", async () => {
    const language = "es";
    const account = newAccount("ajustes");
    const page = await signedIn(account, language, "register");
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto("/dashboard");
    await page.getByTestId("settings-e-readers-link").click();
    await page.waitForURL(/\/settings#e-readers$/);
    await page.getByRole("region", { name: text(language, "eReaders.keys.title") }).waitFor();
    // The link lands on the section, below the header, not at the top of the screen: once the devices
    // above are listed, which on a busy machine can come a moment after the section is there.
    const sectionTop = () => page.evaluate(() => Math.round(document.getElementById("e-readers")!.getBoundingClientRect().top));
    await expect.poll(sectionTop, { timeout: 10_000 }).toBeLessThan(200);
    expect(await sectionTop()).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

    const password = section(page, language, "settings.password.title");
    await password.getByLabel(text(language, "settings.currentPassword")).fill("no-es-la-buena");
    await password.getByLabel(text(language, "settings.password.password"), { exact: true }).fill("otra-contrasena");
    await password.getByLabel(text(language, "settings.password.confirmPassword")).fill("otra-contrasena");
    await password.getByTestId("password-submit").click();
    await password.getByText(text(language, "errors.wrong_password")).waitFor();

    const other = await browser.newContext({ baseURL: baseUrl });
    const otherName = `${account.username}_b`;
    const registered = await other.request.post("/api/auth/register", {
      data: { firstName: "Otro", lastName: "Autor", username: otherName, password: "la-contrasena", confirmPassword: "la-contrasena" },
    });
    expect(registered.status()).toBe(201);
    await other.close();
    const profile = section(page, language, "settings.profile.title");
    await profile.getByLabel(text(language, "settings.profile.username")).fill(otherName);
    await profile.getByTestId("profile-submit").click();
    await profile.getByText(text(language, "errors.username_taken")).waitFor();
    await screenshotBoth(page, "settings-es");

    await page.getByTestId("delete-account").click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByTestId("deletion-preview").waitFor();
    expect(await dialog.textContent()).toContain(text(language, "settings.delete.payments"));
    await expectAccessible(page, "the account deletion dialog (es, 390 px)");
    await screenshotBoth(page, "settings-delete-es");
    await dialog.getByRole("button", { name: text(language, "common.cancel") }).click();
    expect(await page.getByRole("alertdialog").count()).toBe(0);

    expect(policyViolationsOf(page.context())).toEqual([]);
    await page.context().close();
  });

  it.each(["en", "es", "fr"] as const)("passes axe at both widths, fits a phone and is translated (%s)", async (language) => {
    const page = await signedIn(newAccount(`look_${language}`), language, "register");
    await section(page, language, "settings.sessions.title").getByTestId("account-session").first().waitFor();
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `settings (${language}, ${size.width} px)`);
      const scrollsSideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      expect(scrollsSideways, `settings scrolls sideways at ${size.width} px`).toBe(false);
    }
    await expectNoRawTranslationKeys(page, `settings (${language})`);
    await screenshotBoth(page, `settings-look-${language}`);
    await page.context().close();
  });
});
