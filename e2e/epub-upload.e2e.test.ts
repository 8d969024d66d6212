import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { buildEpub, xhtml } from "../test/helpers/epub-builder.ts";
import { launchBrowser, newVisitor, screenshotBoth } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
const scratch = mkdtempSync(join(tmpdir(), "plume-e2e-epub-"));
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("an EPUB uploaded through the form", () => {
  it("fills in the details from the book in the browser, publishes it with its own cover, and refuses one with a script in words", async () => {
    const context = await newVisitor(browser, baseUrl, "en-US");
    const page = await context.newPage();
    const username = `lucia_${Date.now()}`;
    const registered = await page.request.post("/api/auth/register", {
      data: { firstName: "Lucía", lastName: "Ferrer", username, password: "a-good-password", confirmPassword: "a-good-password" },
    });
    expect(registered.status()).toBe(201);

    await page.goto("/upload");
    await page.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles(fixture("book.epub"));
    await expect.poll(() => page.inputValue('input[name="title"]')).toBe("El faro de los libros perdidos");
    expect(await page.inputValue('select[name="language"]')).toBe("es");
    expect(await page.inputValue('textarea[name="description"]')).toBe("Una guardiana de faro encuentra una biblioteca escondida bajo las rocas.");
    await checkEveryLanguage(page, "epub-upload", async (language) => {
      await page.getByTestId("epub-details-read").getByText(text(language, "upload.epubDetailsRead"), { exact: true }).waitFor();
    });

    await page.selectOption('[data-testid="language-select"]', "en");
    await page.selectOption('select[name="genre"]', "novela");
    await page.click('[data-testid="publish-button"]');
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const row = page.locator('[data-testid="author-book"]', { hasText: "El faro de los libros perdidos" });
    await row.waitFor();
    // The package's cover, stored as an author's: an image at a cover's address, not the placeholder.
    await expect.poll(() => row.locator('img[src^="/covers/"]').count()).toBeGreaterThan(0);

    const scripted = join(scratch, "scripted.epub");
    writeFileSync(scripted, await buildEpub({ parts: { "OEBPS/text/chapter-1.xhtml": xhtml("<p>Hola</p><script>alert(1)</script>") } }));
    await page.goto("/upload");
    await page.locator('[data-testid="book-dropzone"] input[type=file]').setInputFiles(scripted);
    await expect.poll(() => page.inputValue('input[name="title"]')).toBe("Made by a test");
    await page.selectOption('select[name="genre"]', "novela");
    await page.click('[data-testid="publish-button"]');
    const zone = page.getByTestId("book-dropzone");
    await zone.getByText(text("en", "upload.epubHasScripts"), { exact: true }).waitFor();
    await screenshotBoth(page, "epub-upload-refused-en");
    expect(page.url()).toMatch(/\/upload$/);
    await context.close();
  });
});
