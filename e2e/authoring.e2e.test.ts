import { statSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Waits for the toast a reader would see with this French title. */
async function toastShown(page: Page, titleKey: string): Promise<void> {
  await page.getByRole("status").getByText(text("fr", titleKey), { exact: true }).waitFor();
}

/** What the storage bar says the author's books keep, in bytes (docs/product.md#storage), once it shows. */
async function storageUsed(page: Page): Promise<string | null> {
  const meter = page.getByRole("meter", { name: new RegExp(`sur ${text("fr", "storage.gigabytes", { value: "1" })}$`) });
  await meter.waitFor();
  return meter.getAttribute("aria-valuenow");
}

async function headingShown(page: Page, key: string, values: Record<string, string> = {}): Promise<void> {
  await page.getByRole("heading", { name: text("fr", key, values), exact: true }).waitFor();
}

describe("an author's book from first upload to deletion, in French", () => {
  const stamp = Date.now();
  const firstTitle = `Le Phare du matin ${stamp}`;
  const newTitle = `La Lanterne du soir ${stamp}`;
  const newDescription = "Un gardien de phare raconte ses nuits, revue et corrigée.";

  it("registers through the form, publishes with a cover, edits title, description and cover, then deletes after cancelling once", async () => {
    const context = await newVisitor(browser, baseUrl, "fr-FR");
    const page = await context.newPage();
    const username = `auteur_${stamp}`;

    await page.goto("/register");
    await expect.poll(() => page.getAttribute("html", "lang")).toBe("fr");
    await headingShown(page, "auth.register.title");
    await page.fill('input[name="firstName"]', "Élise");
    await page.fill('input[name="lastName"]', "Lefèvre");
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', "un-bon-mot-de-passe");
    await page.fill('input[name="confirmPassword"]', "un-bon-mot-de-passe");
    await screenshotBoth(page, "authoring-register");
    await page.click('[data-testid="register-submit"]');
    await toastShown(page, "auth.toasts.accountCreated.title");
    await page.waitForURL((url) => url.pathname === "/");

    await page.goto("/upload");
    await headingShown(page, "upload.title");
    expect(await storageUsed(page)).toBe("0");
    await page.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles(fixture("book.pdf"));
    await page.locator('[data-testid="cover-dropzone"] input[type=file]').setInputFiles(fixture("cover.jpg"));
    await page.fill('input[name="title"]', firstTitle);
    await page.fill('textarea[name="description"]', "Un gardien de phare raconte ses nuits.");
    await page.selectOption('select[name="genre"]', "novela");
    await page.selectOption('select[name="language"]', "fr");
    await screenshotBoth(page, "authoring-upload");
    await page.click('[data-testid="publish-button"]');
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await toastShown(page, "upload.successTitle");

    const row = page.locator('[data-testid="author-book"]');
    await row.getByRole("heading", { name: firstTitle, exact: true }).waitFor();
    const bookId = await row.getAttribute("data-book-id");
    const firstCoverUrl = await row.locator("img").getAttribute("src");
    expect(firstCoverUrl).toMatch(/^\/covers\//);
    await expect.poll(() => storageUsed(page)).toBe(String(statSync(fixture("book.pdf")).size));
    await screenshotBoth(page, "authoring-dashboard-published");

    await page.click(`[data-testid="edit-book-${bookId}"]`);
    await page.waitForURL((url) => url.pathname === `/edit-book/${bookId}`);
    await headingShown(page, "editBook.title");
    await page.fill('input[name="title"]', newTitle);
    await page.fill('textarea[name="description"]', newDescription);
    await page.locator('[data-testid="cover-dropzone"] input[type=file]').setInputFiles(fixture("cover.png"));
    await screenshotBoth(page, "authoring-edit");
    await page.click('[data-testid="save-button"]');
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await toastShown(page, "editBook.successTitle");

    await row.getByRole("heading", { name: newTitle, exact: true }).waitFor();
    await expect.poll(() => row.locator("img").getAttribute("src")).not.toBe(firstCoverUrl);
    const newCoverUrl = await row.locator("img").getAttribute("src");
    const cover = await page.request.get(newCoverUrl!);
    expect(cover.status()).toBe(200);
    expect(cover.headers()["content-type"]).toMatch(/^image\//);
    const saved = await (await page.request.get(`/api/books/${bookId}`)).json();
    expect(saved).toMatchObject({ title: newTitle, description: newDescription, coverImageUrl: newCoverUrl });
    await screenshotBoth(page, "authoring-dashboard-edited");

    const dialog = page.getByRole("alertdialog", { name: text("fr", "dashboard.books.confirmTitle") });
    await page.click(`[data-testid="delete-book-${bookId}"]`);
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(text("fr", "dashboard.books.confirmDescription", { title: newTitle }));
    await screenshotBoth(page, "authoring-delete-dialog");
    await dialog.getByRole("button", { name: text("fr", "common.cancel"), exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await row.getByRole("heading", { name: newTitle, exact: true }).waitFor();
    expect(await row.count()).toBe(1);

    await page.click(`[data-testid="delete-book-${bookId}"]`);
    await dialog.locator('[data-testid="confirm-delete"]').click();
    await toastShown(page, "dashboard.books.deleted.title");
    await dialog.waitFor({ state: "detached" });
    await headingShown(page, "dashboard.books.emptyTitle");
    expect(await row.count()).toBe(0);
    await expect.poll(() => storageUsed(page)).toBe("0");
    const uploadFirst = page.getByRole("link", { name: text("fr", "dashboard.books.uploadFirst"), exact: true });
    expect(await uploadFirst.getAttribute("href")).toBe("/upload");
    await screenshotBoth(page, "authoring-dashboard-empty");

    await page.goto("/catalog");
    await headingShown(page, "catalog.title");
    await page.fill('[data-testid="catalog-search"]', newTitle);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("search") === newTitle);
    await headingShown(page, "catalog.noBooks");
    expect(await page.locator('[data-testid="book-card"]', { hasText: newTitle }).count()).toBe(0);
    await screenshotBoth(page, "authoring-catalog-gone");

    await context.close();
  });
});
