import { readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { registerAccount } from "./authors.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { longChapter, makeEpub } from "./epub-books.ts";
import { checkEveryLanguage } from "./language-tour.ts";

/*
 * Reading an EPUB in the browser (docs/product.md#reading, docs/decisions/0097): pages turned by keys,
 * buttons and taps, the contents, the text size and page colours, the place kept across visits, and
 * no script of a book ever running.
 *
 * Books are not uploaded as EPUBs yet: the test publishes a PDF of many pages and answers the reader's
 * two calls about its format and its EPUB itself; the opening, its counting and the saved positions are
 * the server's own. (The server's side of EPUBs is tested in server/reading/reading.api.test.ts.)
 */

const baseUrl = inject("baseUrl");
const EPUB_MIME_TYPE = "application/epub+zip";
const CHAPTERS = ["The Bridge", "The Quay", "The Lamps", "The Morning"];
let browser: Browser;

/** A PDF long enough that any spine item is one of its pages for the server's page check. */
async function pdfOfPages(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let page = 1; page <= pages; page += 1) pdf.addPage([300, 400]).drawText(`Page ${page}`, { x: 40, y: 350, size: 24 });
  return Buffer.from(await pdf.save());
}

async function publishStandIn(page: Page, title: string): Promise<number> {
  const response = await page.request.post("/api/books", {
    multipart: { title, description: "A book read as an EPUB.", genre: "novela", language: "en", file: { name: "stand-in.pdf", mimeType: "application/pdf", buffer: await pdfOfPages(12) } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** The reader's opening, as the server answers it for an EPUB book, and the book's EPUB. */
async function serveAsEpub(page: Page, bookId: number, epub: Buffer): Promise<void> {
  await page.route(`**/api/books/${bookId}/read`, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const response = await route.fetch();
    const opened = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...opened, format: "epub", pageCount: null } });
  });
  await page.route(`**/api/books/${bookId}/read/epub`, (route) => route.fulfill({ status: 200, contentType: EPUB_MIME_TYPE, body: epub }));
}

/** The frame a chapter is shown in (foliate makes a new one per chapter). */
async function chapterFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().filter((frame) => frame.url() === "about:srcdoc" && !frame.isDetached()).length).toBeGreaterThan(0);
  return page.frames().filter((frame) => frame.url() === "about:srcdoc" && !frame.isDetached()).at(-1)!;
}

const percentOf = async (page: Page) => Number.parseInt((await page.getByTestId("epub-percent").textContent()) ?? "", 10);
/** How far through the book the page shown ends, once the reader has stopped moving (a turn reports a few times). */
async function settledFraction(page: Page): Promise<number> {
  const read = async () => Number(await page.getByTestId("epub-percent").getAttribute("data-fraction"));
  let last = await read();
  for (;;) {
    await page.waitForTimeout(250);
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}
const chapterOf = (page: Page) => page.getByTestId("epub-chapter").textContent();
/** The saved place sent by the reader, once the pages stop turning. */
const nextSave = (page: Page, bookId: number) =>
  page.waitForRequest((request) => request.method() === "PUT" && request.url().endsWith(`/api/books/${bookId}/read/position`));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("reading an EPUB", () => {
  let context: BrowserContext;
  let page: Page;
  let bookId: number;
  const title = `The River Book ${Date.now()}`;

  beforeAll(async () => {
    context = await newVisitor(browser, baseUrl);
    page = await context.newPage();
    await registerAccount(page.request, { firstName: "Lectora", lastName: "Epub" });
    bookId = await publishStandIn(page, title);
    const epub = await makeEpub({
      title,
      // Long chapters: the page turns below stay inside the first.
      chapters: CHAPTERS.map((chapter) => longChapter(chapter, 120)),
      css: "h1 { text-align: center; } p { text-indent: 1.5em; }",
    });
    await serveAsEpub(page, bookId, epub);
  });
  afterAll(() => context?.close());

  it("turns pages by keys, buttons and taps, goes to a chapter, changes colours and text size, and opens again at the same place", async () => {
    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    expect(await chapterOf(page)).toBe(CHAPTERS[0]);
    let frame = await chapterFrame(page);
    await expect.poll(() => frame.locator("h1").textContent()).toBe(CHAPTERS[0]);
    // The book's own stylesheet and style attributes apply, though the page's CSP refuses <link> to blob: and inline styles.
    expect(await frame.locator("h1").evaluate((h1) => getComputedStyle(h1).textAlign)).toBe("center");
    expect(await frame.locator("h1").evaluate((h1) => getComputedStyle(h1).letterSpacing)).not.toBe("normal");

    // → and Page Down and Space turn forward, ← back; so do taps on the page's right and left thirds, and the buttons.
    const box = (await page.getByTestId("epub-book").boundingBox())!;
    const tap = (side: number) => page.mouse.click(box.x + box.width * side, box.y + box.height / 2);
    const turns: Array<[string, () => Promise<void>, "forward" | "back"]> = [
      ["→", () => page.keyboard.press("ArrowRight"), "forward"],
      ["Page Down", () => page.keyboard.press("PageDown"), "forward"],
      ["a tap on the right third", () => tap(0.9), "forward"],
      ["a tap on the left third", () => tap(0.1), "back"],
      ["Space", () => page.keyboard.press("Space"), "forward"],
      ["←", () => page.keyboard.press("ArrowLeft"), "back"],
      ["the next page button", () => page.getByTestId("epub-next").click(), "forward"],
    ];
    for (const [how, press, direction] of turns) {
      const before = await settledFraction(page);
      await press();
      await expect.poll(() => settledFraction(page), { message: `${how} turns ${direction}` })[direction === "forward" ? "toBeGreaterThan" : "toBeLessThan"](before);
    }
    expect(await chapterOf(page)).toBe(CHAPTERS[0]);
    // A tap in the middle is for reading: it turns nothing.
    const still = await settledFraction(page);
    await tap(0.5);
    await page.waitForTimeout(300);
    expect(await settledFraction(page)).toBe(still);

    // The contents list the book's chapters; one of them is a click away.
    await page.getByTestId("epub-toc-toggle").click();
    expect(await page.getByTestId("epub-toc-toggle").getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByTestId("epub-toc").getByRole("button").allTextContents()).toEqual(CHAPTERS);
    await page.getByTestId("epub-toc").getByRole("button", { name: CHAPTERS[2] }).click();
    await expect.poll(() => chapterOf(page)).toBe(CHAPTERS[2]);
    frame = await chapterFrame(page);
    await expect.poll(() => frame.locator("h1").textContent()).toBe(CHAPTERS[2]);
    // Closed again, the contents give the book its width back: the place below is compared on pages of one width.
    await page.getByTestId("epub-toc-toggle").click();
    await page.getByTestId("epub-toc").waitFor({ state: "detached" });
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");

    // Page colours and text size apply inside the book's frame.
    await page.getByTestId("epub-theme-dark").click();
    expect(await page.getByTestId("epub-theme-dark").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => frame.locator("body").evaluate((body) => getComputedStyle(body).backgroundColor)).toBe("rgb(23, 23, 26)");
    const fontSize = () => frame.locator("html").evaluate((html) => Number.parseFloat(getComputedStyle(html).fontSize));
    const before = await fontSize();
    await page.getByTestId("epub-larger").click();
    await page.getByTestId("epub-larger").click();
    await expect.poll(fontSize).toBeGreaterThan(before);
    expect(await page.getByTestId("epub-reader").getAttribute("data-font-size")).toBe("120");
    await screenshotBoth(page, "epub-reader-dark-larger");

    // The place is saved a moment after the last turn: the spine item, how far through, the exact place.
    const saved = nextSave(page, bookId);
    await page.keyboard.press("ArrowRight");
    const position = (await saved).postDataJSON() as { page: number; percentage: number; locator: string; format: string };
    expect(position).toMatchObject({ page: 3, format: "epub" });
    expect(position.locator).toMatch(/^epubcfi\(/);
    await page.waitForTimeout(300);
    const place = { percent: await percentOf(page), chapter: await chapterOf(page), firstWords: await (await chapterFrame(page)).locator("h1").textContent() };

    // Elsewhere, then back: the same place, the same colours and size.
    await page.goto(`/books/${bookId}`);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    await expect.poll(async () => ({ percent: await percentOf(page), chapter: await chapterOf(page) })).toEqual({ percent: place.percent, chapter: place.chapter });
    expect(await page.getByTestId("epub-reader").getAttribute("data-theme")).toBe("dark");
    expect(await page.getByTestId("epub-reader").getAttribute("data-font-size")).toBe("120");
    expect(await (await chapterFrame(page)).locator("h1").textContent()).toBe(place.firstWords);
    expect(policyViolationsOf(context)).toEqual([]);
  });

  it("turns pages by a swipe and by a tap on a touch screen", async () => {
    const phone = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORTS.phone, hasTouch: true, isMobile: true });
    const touchPage = await phone.newPage();
    await registerAccount(touchPage.request, { firstName: "Lectora", lastName: "Tactil" });
    await serveAsEpub(touchPage, bookId, await makeEpub({ title, chapters: CHAPTERS.map((chapter) => longChapter(chapter, 120)) }));
    await touchPage.goto(`/books/${bookId}/read`);
    await touchPage.getByTestId("epub-percent").waitFor();
    const box = (await touchPage.getByTestId("epub-book").boundingBox())!;
    const y = box.y + box.height / 2;
    const touch = await phone.newCDPSession(touchPage);
    const swipe = async (fromX: number, toX: number) => {
      await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: fromX, y }] });
      for (let step = 1; step <= 8; step += 1) {
        await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: fromX + ((toX - fromX) * step) / 8, y }] });
      }
      await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const start = await settledFraction(touchPage);
    // A finger drawn from right to left turns forward; back, from left to right.
    await swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
    await expect.poll(() => settledFraction(touchPage)).toBeGreaterThan(start);
    const swiped = await settledFraction(touchPage);
    await touchPage.touchscreen.tap(box.x + box.width * 0.9, y);
    await expect.poll(() => settledFraction(touchPage)).toBeGreaterThan(swiped);
    const tapped = await settledFraction(touchPage);
    await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
    await expect.poll(() => settledFraction(touchPage)).toBeLessThan(tapped);

    // On a phone the controls keep to one row above the page, the colours behind one button.
    const toolbar = (await touchPage.getByRole("toolbar").boundingBox())!;
    expect(toolbar.height).toBeLessThan(64);
    const reader = touchPage.getByTestId("epub-reader");
    const before = await reader.getAttribute("data-theme");
    await touchPage.getByTestId("epub-theme-next").tap();
    await expect.poll(() => reader.getAttribute("data-theme")).not.toBe(before);
    await phone.close();
  });

  it("opens at how far through a KOReader position says, when it has no CFI", async () => {
    // Left first: leaving the reader saves the place it shows, which would come after this one.
    await page.goto(`/books/${bookId}`);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    const saved = await page.request.put(`/api/books/${bookId}/read/position`, { data: { page: 4, percentage: 0.9, format: "epub" } });
    expect(saved.status()).toBe(204);
    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    await expect.poll(() => chapterOf(page)).toBe(CHAPTERS[3]);
    await expect.poll(() => percentOf(page)).toBeGreaterThanOrEqual(85);
  });

  it("is accessible and in every language at phone and desktop widths, its contents open", async () => {
    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    await page.getByTestId("epub-theme-sepia").click();
    await page.getByTestId("epub-toc-toggle").click();
    await checkEveryLanguage(page, "epub-reader", async () => {
      await page.getByTestId("epub-toc").waitFor();
    });
    // On a phone the contents cover the page: a chapter chosen closes them, Escape too, giving the focus back.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByTestId("epub-toc").getByRole("button", { name: CHAPTERS[1] }).click();
    await page.getByTestId("epub-toc").waitFor({ state: "detached" });
    await expect.poll(() => chapterOf(page)).toBe(CHAPTERS[1]);
    await page.getByTestId("epub-toc-toggle").click();
    await page.getByTestId("epub-toc").getByRole("button", { name: CHAPTERS[0] }).focus();
    await page.keyboard.press("Escape");
    await page.getByTestId("epub-toc").waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("epub-toc-toggle");
    await page.setViewportSize(VIEWPORTS.desktop);
  });
});

describe("the fixtures' EPUB (made by another tool, checked by EPUBCheck)", () => {
  it("shows its first chapter with its stylesheet, lists its contents and goes to the second", async () => {
    const context = await newVisitor(browser, baseUrl, "es-ES");
    const page = await context.newPage();
    await registerAccount(page.request, { firstName: "Lectora", lastName: "Faro" });
    const bookId = await publishStandIn(page, `El faro ${Date.now()}`);
    await serveAsEpub(page, bookId, readFileSync(fixture("book.epub")));
    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    const frame = await chapterFrame(page);
    await expect.poll(() => frame.locator("h1").textContent()).toBe("I. La luz");
    expect(await frame.locator("h1").evaluate((h1) => getComputedStyle(h1).textAlign)).toBe("center");
    await page.getByTestId("epub-toc-toggle").click();
    expect(await page.getByTestId("epub-toc").getByRole("button").allTextContents()).toEqual(["I. La luz", "II. Las rocas"]);
    await page.getByTestId("epub-toc").getByRole("button", { name: "II. Las rocas" }).click();
    await expect.poll(() => chapterOf(page)).toBe("II. Las rocas");
    await expect.poll(async () => (await chapterFrame(page)).locator("h1").textContent()).toBe("II. Las rocas");
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });
});

describe("a book's scripts", () => {
  it("never run: no inline or linked script, no handler, neither in the book's frame nor on the page", async () => {
    const context = await newVisitor(browser, baseUrl);
    const page = await context.newPage();
    await registerAccount(page.request, { firstName: "Lector", lastName: "Prudente" });
    const title = `Harmless Looking ${Date.now()}`;
    const bookId = await publishStandIn(page, title);
    // Each way a chapter could run script reports to the console, changes the page's title and calls the API.
    const payload = (how: string) => `console.log('book script ran: ${how}'); try { parent.document.title = 'pwned'; } catch (e) {} document.title = 'pwned'; fetch('/api/pwned?${how}');`;
    const epub = await makeEpub({
      title,
      chapters: [
        {
          title: "Innocent",
          body:
            `<h1 onclick="${payload("onclick")}">Innocent</h1>` +
            `<p>Nothing to see here.</p>` +
            `<script>${payload("inline")}</script>` +
            `<script src="evil.js"></script>` +
            `<script src="/evil-from-site.js"></script>` +
            `<img src="missing.png" alt="" onerror="${payload("onerror")}"/>` +
            `<svg xmlns="http://www.w3.org/2000/svg" onload="${payload("svg")}"><rect width="1" height="1"/></svg>` +
            `<a href="javascript:${payload("link")}">a link</a>`,
        },
      ],
      extraFiles: { "evil.js": payload("packaged") },
    });
    await serveAsEpub(page, bookId, epub);
    const ran: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("book script ran")) ran.push(message.text());
    });
    page.on("request", (request) => {
      if (request.url().includes("/api/pwned")) ran.push(request.url());
    });
    await page.route("**/evil-from-site.js", (route) => route.fulfill({ contentType: "text/javascript", body: payload("site") }));

    await page.goto(`/books/${bookId}/read`);
    await page.getByTestId("epub-percent").waitFor();
    const frame = await chapterFrame(page);
    await expect.poll(() => frame.locator("p").textContent()).toBe("Nothing to see here.");
    await frame.locator("h1").click();
    await frame.locator("a").click();
    await page.waitForTimeout(500);
    expect(ran).toEqual([]);
    expect(await page.title()).toContain(title);
    expect(await frame.evaluate(() => document.title)).toBe("Innocent");
    await context.close();
  });
});
