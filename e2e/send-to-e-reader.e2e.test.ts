import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { expectAccessible } from "./accessibility.ts";
import { launchBrowser, newVisitor, policyViolationsOf, screenshotBoth, screenshotFolder } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");
const TITLE = "Un libro para el Kindle";

let browser: Browser;
let bookId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await newVisitor(browser, baseUrl);
  await registerAccount(author.request, { firstName: "Olga", lastName: "Kindle" });
  bookId = await publishPdf(author.request, { title: TITLE, description: "Enviado por correo a un lector." });
  await author.close();
});
afterAll(() => browser?.close());

/** The .eml files the server wrote for this address (its mail without SMTP_URL), parsed as a mail program reads them. */
async function mailsTo(address: string): Promise<ParsedMail[]> {
  const names = existsSync(mailDir) ? readdirSync(mailDir).filter((name) => name.endsWith(".eml")) : [];
  const parsed = await Promise.all(names.map((name) => simpleParser(readFileSync(join(mailDir, name)))));
  return parsed.filter((mail) => [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)));
}

/** The section alone at both widths: the settings page is too long for its full-page picture to show it. */
async function screenshotSection(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotFolder, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator("#e-reader-email").screenshot({ path: join(screenshotFolder, `${name}-${width}.png`) });
  }
}

describe("send to e-reader (docs/product.md#send-to-e-reader)", () => {
  it("a reader sets their Kindle's address, sends a book from its page, and the mail carries the book", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    const { username } = await registerAccount(page.request, { firstName: "Kiko", lastName: "Lector" });
    const address = `${username}@kindle.com`;

    // Without an address, the book page leads to the settings section that sets it.
    await page.goto(`/books/${bookId}`);
    await page.locator('[data-testid="send-to-e-reader-setup"]').waitFor();
    await expectAccessible(page, "book page, no e-reader address yet");
    await screenshotBoth(page, "send-to-e-reader-setup-en");
    await page.locator('[data-testid="send-to-e-reader-setup"]').click();
    await page.waitForURL(/\/settings#e-reader-email$/);
    const section = page.locator("#e-reader-email");
    await expect.poll(() => section.locator('[data-testid="mail-sender"]').textContent()).toBe("no-reply@localhost");
    await section.getByLabel(text("en", "settings.eReaderEmail.label")).fill("not an address");
    await section.locator('[data-testid="e-reader-email-submit"]').click();
    await section.getByText(text("en", "validation.emailInvalid")).waitFor();
    await section.getByLabel(text("en", "settings.eReaderEmail.label")).fill(address);
    await page.keyboard.press("Enter");
    await section.getByText(text("en", "settings.eReaderEmail.saved", { email: address })).waitFor();

    await page.goto(`/books/${bookId}`);
    await page.getByRole("button", { name: text("en", "bookPage.sendToEReader") }).click();
    await page.getByText(text("en", "toasts.sentToEReader.title")).waitFor();
    await page.getByText(text("en", "toasts.sentToEReader.description", { fileName: `${TITLE}.pdf`, email: address })).waitFor();
    await page.screenshot({ path: join(screenshotFolder, "send-to-e-reader-sent-en-1280.png") });

    const [mail, ...others] = await mailsTo(address);
    expect(others).toEqual([]);
    expect(mail!.subject).toBe(`“${TITLE}” by Olga Kindle`);
    expect(mail!.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([[`${TITLE}.pdf`, "application/pdf"]]);
    expect(mail!.attachments[0]!.content.equals(readFileSync(fixture("book.pdf")))).toBe(true);
    // The send counted as this reader's download of the book.
    const book = (await (await page.request.get(`/api/books/${bookId}`)).json()) as { downloadCount: number };
    expect(book.downloadCount).toBe(1);
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });

  it("the settings section and the book page's button pass axe at both widths in every language", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    const { username } = await registerAccount(page.request, { firstName: "Tour", lastName: "Lectora" });
    const address = `${username}@free.kindle.com`;
    expect((await page.request.put("/api/account/e-reader-email", { data: { eReaderEmail: address } })).status()).toBe(200);

    await page.goto("/settings#e-reader-email");
    await checkEveryLanguage(page, "send-to-e-reader-settings", async (language) => {
      await page.locator("#e-reader-email").getByText(text(language, "settings.eReaderEmail.current", { email: address })).waitFor();
      await page.locator('[data-testid="mail-sender"]').waitFor();
      await screenshotSection(page, `send-to-e-reader-section-${language}`);
    });

    await page.goto(`/books/${bookId}`);
    await checkEveryLanguage(page, "send-to-e-reader-book-page", async (language) => {
      await page.getByRole("button", { name: text(language, "bookPage.sendToEReader") }).waitFor();
    });
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });
});
