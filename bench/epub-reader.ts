import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { registerAccount, publishPdf } from "../e2e/authors.ts";
import { launchBrowser, newVisitor } from "../e2e/browser.ts";
import { buildClient } from "../server/http/client-build.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { type Benchmark, type BenchmarkOptions, judged } from "./lib/benchmark.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";

/**
 * The EPUB reader (docs/decisions/0097) as a reader's browser gets it from the production build, under
 * the server's CSP: the JavaScript the reader's screen fetches for an EPUB beyond what the site already
 * ran (foliate-js is a lazy chunk, never part of a first visit), and the time from asking for the
 * reader's address to the first page of the fixtures' EPUB (/work/shared/fixtures/book.epub) being laid
 * out. Books are not uploaded as EPUBs yet: the reader's opening and its EPUB are answered by the
 * browser for a published book, as in e2e/epub-reader.e2e.test.ts; the rest is the real server.
 */

const MODES = { full: { runs: 7 }, quick: { runs: 3 } };
/** The reader's own JavaScript for an EPUB, gzipped: foliate-js's view, paginator, EPUB parser and zip reader, and Plume's reader. */
const READER_JS_BUDGET_KB = 64;
/** docs/decisions/0097: the first page of a small book within a second on this machine, the reader's chunks fetched cold. */
const FIRST_PAGE_BUDGET_MS = 1000;
/** User Timing mark the reader sets once the first page is shown (client/src/features/reader/use-epub-book.ts). */
const FIRST_PAGE_MARK = "plume:epub-first-page";
const KILOBYTE = 1024;

/** Answers the reader's two calls about the book as the server does for an EPUB book. */
async function serveAsEpub(page: Page, bookId: number, epub: Buffer): Promise<void> {
  await page.route(`**/api/books/${bookId}/read`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), format: "epub", pageCount: null } });
  });
  await page.route(`**/api/books/${bookId}/read/epub`, (route) => route.fulfill({ status: 200, contentType: "application/epub+zip", body: epub }));
}

/** A reader's account in a new browser, signed in: the book counted once, then read again in each run. */
async function readerPage(browser: Browser, baseUrl: string, bookId: number, epub: Buffer) {
  const context = await newVisitor(browser, baseUrl);
  const page = await context.newPage();
  await registerAccount(page.request, { firstName: "Medidora", lastName: "Epub" });
  await serveAsEpub(page, bookId, epub);
  return { context, page };
}

interface ReaderScript {
  url: string;
  gzipped: number;
  /** Asked for once the opening said the book is an EPUB: the EPUB reader's own, not the reader screen's. */
  forEpub: boolean;
}

/** The scripts a signed-in reader's browser fetches going from the book's page to its reader, gzipped one by one at level 9. */
async function readerScripts(browser: Browser, baseUrl: string, bookId: number, epub: Buffer): Promise<ReaderScript[]> {
  const { context, page } = await readerPage(browser, baseUrl, bookId, epub);
  try {
    await page.goto(`/books/${bookId}`, { waitUntil: "networkidle" });
    let opened = false;
    const scripts: Array<Promise<ReaderScript>> = [];
    page.on("requestfinished", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === `/api/books/${bookId}/read`) opened = true;
    });
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const forEpub = opened;
      scripts.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, gzipped: gzipSync(body, { level: 9 }).length, forEpub })));
    });
    await page.getByTestId("read-link").click();
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_PAGE_MARK);
    await page.waitForLoadState("networkidle");
    return await Promise.all(scripts);
  } finally {
    await context.close();
  }
}

/** Milliseconds from the navigation to the reader's address to its first page, with nothing cached. */
async function timeToFirstPage(browser: Browser, baseUrl: string, bookId: number, epub: Buffer): Promise<number> {
  const { context, page } = await readerPage(browser, baseUrl, bookId, epub);
  try {
    await page.goto(`/books/${bookId}/read`);
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FIRST_PAGE_MARK, { timeout: 30_000 });
    return await page.evaluate((mark) => performance.getEntriesByName(mark)[0]!.startTime, FIRST_PAGE_MARK);
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function run({ quick, log }: BenchmarkOptions) {
  const { runs } = MODES[quick ? "quick" : "full"];
  const workDir = join(CACHE_DIR, "epub-reader");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const clientFolder = mkdtempSync(join(tmpdir(), "plume-bench-epub-client-"));
  await buildClient(clientFolder);
  const server = await startPlumeServer(
    { kind: "pglite", dataDir: join(workDir, "plume-data") },
    { dataDir: join(workDir, "plume-data"), logFile: join(RESULTS_DIR, "plume-epub-reader.log"), settings: { TRUST_PROXY: "loopback" }, clientFolder },
  );
  const browser = await launchBrowser();
  try {
    const baseUrl = server.url;
    const epub = readFileSync(fixture("book.epub"));
    const author = await newVisitor(browser, baseUrl);
    await registerAccount(author.request, { firstName: "Autora", lastName: "Epub" });
    const bookId = await publishPdf(author.request, { title: "An EPUB to measure", language: "en" });
    await author.close();

    const scripts = await readerScripts(browser, baseUrl, bookId, epub);
    const kilobytesOf = (list: ReaderScript[]) => list.reduce((sum, script) => sum + script.gzipped, 0) / KILOBYTE;
    const namesOf = (list: ReaderScript[]) => list.map(({ url }) => url.replace(/^\/assets\/|-[\w-]{8}\.js$/g, "")).join(", ");
    const forEpub = scripts.filter((script) => script.forEpub);
    log(`reader screen: ${scripts.map(({ url, gzipped }) => `${url.replace(/^\/assets\//, "")} ${(gzipped / KILOBYTE).toFixed(1)} KB`).join(", ")}`);
    const times: number[] = [];
    for (let index = 0; index < runs; index += 1) {
      times.push(await timeToFirstPage(browser, baseUrl, bookId, epub));
      log(`first page in ${times.at(-1)!.toFixed(0)} ms`);
    }
    return {
      results: [
        judged({
          name: "epub-reader.epub-js",
          figure: kilobytesOf(forEpub),
          unit: "KB",
          peers: [],
          budgets: [{ kind: "at-most", limit: READER_JS_BUDGET_KB }],
          note: `fetched once the opening says the book is an EPUB, gzipped one by one at level 9 (${forEpub.length}: ${namesOf(forEpub)}): foliate-js and Plume's EPUB reader`,
        }),
        judged({
          name: "epub-reader.screen-js",
          figure: kilobytesOf(scripts),
          unit: "KB",
          peers: [],
          budgets: [],
          note: `everything fetched going from a book's page to its EPUB reader (${scripts.length}: ${namesOf(scripts)}); the texts and the schemas are every other screen's too; none is on a first visit`,
        }),
        judged({
          name: "epub-reader.first-page",
          figure: median(times),
          unit: "ms",
          peers: [],
          budgets: [{ kind: "at-most", limit: FIRST_PAGE_BUDGET_MS }],
          note: `from asking for /books/:id/read in a new browser (nothing cached: the app, the reader's chunks, the opening, the EPUB of ${(epub.length / KILOBYTE).toFixed(0)} KB) to its first page laid out; median of ${runs} (${times.map((time) => time.toFixed(0)).join(", ")} ms)`,
        }),
      ],
      context: { runs, scripts, times, epubBytes: epub.length },
    };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(clientFolder, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "epub-reader", run };
