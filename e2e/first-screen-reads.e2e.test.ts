import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bookIdOfSegment } from "../shared/book-urls.ts";
import { launchBrowser, newVisitor, policyViolationsOf } from "./browser.ts";
import { publishedBookPath } from "./first-visit-scripts.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
let bookPage: string;
beforeAll(async () => {
  browser = await launchBrowser();
  bookPage = await publishedBookPath(baseUrl);
});
afterAll(() => browser?.close());

/**
 * A first visit to a screen: the API addresses the browser asked for, in order, what it said about
 * preloads (a preload the page's fetch could not take is a warning naming it), and whether the
 * policy blocked anything, the inline stylesheet included.
 */
async function visit(path: string) {
  const context = await newVisitor(browser, baseUrl);
  try {
    const page = await context.newPage();
    const reads: string[] = [];
    const preloadMessages: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/")) reads.push(`${url.pathname}${url.search}`);
    });
    page.on("console", (message) => {
      if (/preload/i.test(message.text())) preloadMessages.push(message.text());
    });
    await page.goto(path, { waitUntil: "networkidle" });
    // The paper colour of client/src/index.css: the stylesheet written into the page applies.
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    return { reads, preloadMessages, background, policyViolations: policyViolationsOf(context) };
  } finally {
    await context.close();
  }
}

const askedTwice = (reads: string[]) => reads.filter((read, index) => reads.indexOf(read) !== index);

describe("a first visit's reads", () => {
  it.each([
    ["/", ["/api/auth/user", "/api/books?limit=4&offset=0"]],
    ["/catalog", ["/api/auth/user", "/api/books?limit=20&offset=0"]],
    ["/catalog?search=first%20visit&sort=title", ["/api/auth/user", "/api/books?limit=20&offset=0&search=first+visit&sort=title"]],
  ])("to %s asks for each read of its screen once: the app takes the page's preloaded answers", async (path, expected) => {
    const { reads, preloadMessages, background, policyViolations } = await visit(path);
    expect(reads).toEqual(expect.arrayContaining(expected));
    expect(askedTwice(reads)).toEqual([]);
    expect(preloadMessages).toEqual([]);
    expect(background).toBe("rgb(250, 246, 238)");
    expect(policyViolations).toEqual([]);
  });

  it("to a book's page asks for the book and its author once each", async () => {
    const bookId = bookIdOfSegment(bookPage.split("/")[2]!);
    const { reads, preloadMessages, policyViolations } = await visit(bookPage);
    expect(reads).toEqual(expect.arrayContaining(["/api/auth/user", `/api/books/${bookId}`]));
    expect(reads.filter((read) => read.startsWith("/api/authors/"))).toHaveLength(1);
    expect(askedTwice(reads)).toEqual([]);
    expect(preloadMessages).toEqual([]);
    expect(policyViolations).toEqual([]);
  });
});
