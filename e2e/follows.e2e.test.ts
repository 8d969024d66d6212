import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unsubscribeTokensFor } from "../server/follows/unsubscribe-tokens.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { expectAccessible } from "./accessibility.ts";
import { launchBrowser, newVisitor, policyViolationsOf, screenshotBoth, screenshotFolder } from "./browser.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
const mailDir = inject("mailDir");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The server's own unsubscribe link for an account, as a digest carries it: signed with the secret it keeps under DATA_DIR. */
function unsubscribePath(userId: string): string {
  const secret = readFileSync(join(dirname(mailDir), "session-secret"), "utf8").trim();
  return `/unsubscribe?token=${unsubscribeTokensFor(secret).tokenFor(userId)}`;
}

/** A part of a long page alone at both widths: the page's full picture is too tall to show it. */
async function screenshotPart(page: Page, part: Locator, name: string): Promise<void> {
  mkdirSync(screenshotFolder, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await part.screenshot({ path: join(screenshotFolder, `${name}-${width}.png`) });
  }
}

describe("follows (docs/product.md#follows)", () => {
  it("a reader follows an author, sees the author's new book on the home page, chooses the digest and turns it off from the mail's link", async () => {
    const authorContext = await newVisitor(browser, baseUrl);
    const author = await registerAccount(authorContext.request, { firstName: "Rosa", lastName: "Seguida" });
    await publishPdf(authorContext.request, { title: "Primer libro de Rosa" });

    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    const reader = await registerAccount(page.request, { firstName: "Leo", lastName: "Lector" });

    // Follow from the author's page; the state is the reader's own call, never in the page's public answer.
    await page.goto(`/authors/${author.id}`);
    const follow = page.getByTestId("follow-button");
    await expect.poll(() => follow.isEnabled()).toBe(true);
    await expect.poll(() => follow.getAttribute("data-following")).toBe("false");
    await follow.click();
    await expect.poll(() => follow.getAttribute("data-following")).toBe("true");
    await page.getByText(text("en", "follow.followed", { author: "Rosa Seguida" })).waitFor();
    await expectAccessible(page, "author page, followed");
    await screenshotBoth(page, "follows-author-page-en");

    // The author publishes: the book is on the reader's home, in the row of followed authors.
    const title = "Segundo libro de Rosa";
    await publishPdf(authorContext.request, { title });
    await page.goto("/");
    const row = page.getByTestId("following-books");
    await row.getByRole("link", { name: title }).waitFor();
    await checkEveryLanguage(page, "follows-home", async (language) => {
      await row.getByRole("heading", { level: 2, name: text(language, "following.row.title") }).waitFor();
      await row.getByRole("link", { name: title }).waitFor();
      await screenshotPart(page, row, `follows-home-row-${language}`);
    });

    // The digest's choice in the settings, saved at a click.
    await page.goto("/settings#digest");
    const section = page.locator("#digest");
    await checkEveryLanguage(page, "follows-settings-digest", async (language) => {
      await section.getByRole("heading", { level: 2, name: text(language, "following.digest.title") }).waitFor();
      await screenshotPart(page, section, `follows-settings-section-${language}`);
    });
    await section.getByTestId("digest-instant").check();
    await section.getByTestId("digest-saved").getByText(text("fr", "following.digest.saved")).waitFor();
    let account = (await (await page.request.get("/api/auth/user")).json()) as { digestFrequency: string };
    expect(account.digestFrequency).toBe("instant");

    // The mail's unsubscribe link opens a page that asks first; the button turns the digest off.
    await page.goto(unsubscribePath(reader.id));
    const stop = page.getByTestId("unsubscribe-button");
    await stop.waitFor();
    account = (await (await page.request.get("/api/auth/user")).json()) as { digestFrequency: string };
    expect(account.digestFrequency).toBe("instant");
    await expectAccessible(page, "unsubscribe page");
    await screenshotBoth(page, "follows-unsubscribe-fr");
    await stop.click();
    await page.getByTestId("unsubscribe-done").waitFor();
    account = (await (await page.request.get("/api/auth/user")).json()) as { digestFrequency: string };
    expect(account.digestFrequency).toBe("off");

    // The home row follows the unfollow too.
    await page.goto(`/authors/${author.id}`);
    await expect.poll(() => follow.getAttribute("data-following")).toBe("true");
    await follow.click();
    await expect.poll(() => follow.getAttribute("data-following")).toBe("false");
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
    await authorContext.close();
  });
});
