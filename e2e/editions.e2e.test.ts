import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { multiPagePdf } from "../test/helpers/book-fixtures.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { launchBrowser, newVisitor, policyViolationsOf } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const TITLE = "Un libro en dos ediciones";
const CHANGELOG = "Letra más grande y el mapa de la costa.";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const pdfPage = (page: Page, number: number) => page.locator(`[data-testid="pdf-page"][data-page="${number}"][data-drawn="true"]`);
const downloadCountOf = async (page: Page, id: number) => ((await (await page.request.get(`/api/books/${id}`)).json()) as { downloadCount: number }).downloadCount;

describe("living editions (docs/product.md#editions)", () => {
  it("an author publishes a second edition; a reader of the first is told, downloads either, is not counted again and reads on at the same percentage", async () => {
    const authorContext = await newVisitor(browser, baseUrl);
    const author = await authorContext.newPage();
    await registerAccount(author.request, { firstName: "Elena", lastName: "Ediciones" });
    const bookId = await publishPdf(author.request, { title: TITLE, pdf: await multiPagePdf(10) });

    // A reader takes the first edition in the reader and leaves it on page 4 of 10: a third of the way.
    const readerContext = await newVisitor(browser, baseUrl);
    const reader = await readerContext.newPage();
    await registerAccount(reader.request, { firstName: "Rita", lastName: "Lectora" });
    await reader.goto(`/books/${bookId}/read`);
    await pdfPage(reader, 1).waitFor();
    await reader.getByTestId("reader-page-input").fill("4");
    const saved = reader.waitForResponse((response) => response.url().endsWith(`/api/books/${bookId}/read/position`) && response.request().method() === "PUT");
    await reader.getByTestId("reader-page-input").press("Enter");
    await pdfPage(reader, 4).waitFor();
    expect((await saved).status()).toBe(204);
    expect(await downloadCountOf(reader, bookId)).toBe(1);

    // The author publishes edition 2 from the edit page: a 19-page PDF and what changed.
    await author.goto(`/edit-book/${bookId}`);
    const section = author.getByTestId("new-edition");
    await section.getByTestId("edition-1").waitFor();
    const file = join(tmpdir(), `edition-2-${Date.now()}.pdf`);
    writeFileSync(file, await multiPagePdf(19));
    await section.getByTestId("edition-dropzone").locator("input[type=file]").setInputFiles(file);
    await section.getByLabel(text("en", "editionForm.changelogLabel")).fill(CHANGELOG);
    await section.getByTestId("publish-edition").click();
    await author.getByText(text("en", "editionForm.successTitle", { number: 2 })).waitFor();
    await section.getByTestId("edition-2").getByText(CHANGELOG).waitFor();
    await checkEveryLanguage(author, "editions-edit-page", async (language) => {
      await section.getByRole("heading", { name: text(language, "editionForm.title") }).waitFor();
      await section.getByTestId("publish-edition").getByText(text(language, "editionForm.submit", { number: 3 })).waitFor();
    });

    // The reader sees the notice with the changelog, and both editions with their dates.
    await reader.goto(`/books/${bookId}`);
    const notice = reader.getByTestId("new-edition-notice");
    await notice.getByText(CHANGELOG).waitFor();
    await reader.getByTestId("edition-1").waitFor();
    await reader.getByTestId("edition-2").getByText(CHANGELOG).waitFor();
    await checkEveryLanguage(reader, "editions-book-page", async (language) => {
      await notice.getByRole("heading", { name: text(language, "editions.newTitle") }).waitFor();
      await reader.getByTestId("book-editions").getByRole("heading", { name: text(language, "editions.title"), exact: true }).waitFor();
    });
    await reader.selectOption('[data-testid="language-select"]', "en");

    // Either edition downloads; neither counts the reader again.
    const [first] = await Promise.all([reader.waitForEvent("download"), reader.getByTestId("download-edition-1").click()]);
    expect(first.suggestedFilename()).toBe(`${TITLE}.pdf`);
    expect(await downloadCountOf(reader, bookId)).toBe(1);
    const [second] = await Promise.all([reader.waitForEvent("download"), notice.getByTestId("download-edition-2").click()]);
    expect(second.suggestedFilename()).toBe(`${TITLE}.pdf`);
    expect(await downloadCountOf(reader, bookId)).toBe(1);
    // Taken since: the notice is gone.
    await expect.poll(() => reader.getByTestId("new-edition-notice").count()).toBe(0);

    // The reader opens edition 2 a third of the way through: page 7 of 19.
    await reader.goto(`/books/${bookId}/read`);
    await pdfPage(reader, 7).waitFor();
    expect(await reader.getByTestId("reader-page-input").inputValue()).toBe("7");
    expect(await downloadCountOf(reader, bookId)).toBe(1);

    expect(policyViolationsOf(readerContext)).toEqual([]);
    expect(policyViolationsOf(authorContext)).toEqual([]);
    await readerContext.close();
    await authorContext.close();
  });
});
