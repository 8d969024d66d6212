import { loadavg } from "node:os";
import type { Browser } from "playwright-core";
import { screenEmulationMetrics, throttling } from "lighthouse/core/config/constants.js";

/**
 * Lighthouse's slow 4G line (`mobileSlow4G`: a 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and
 * its phone's CPU, four times slower, applied by Chromium itself as DevTools throttles: each request
 * waits the round trip once. Lighthouse's own DevTools mode waits 3.75 round trips a request and takes
 * a tenth off the throughputs, to stand for connections being opened; its default mode computes the
 * phone's timings from an unthrottled load instead, and has no page left to look for a card in.
 */
export const SLOW_PHONE = {
  latencyMs: throttling.mobileSlow4G.rttMs,
  downloadKbps: throttling.mobileSlow4G.throughputKbps,
  // Lighthouse keeps the upload only with its DevTools tenth taken off: 750 kbit/s again.
  uploadKbps: throttling.mobileSlow4G.uploadThroughputKbps / throttling.DEVTOOLS_THROUGHPUT_ADJUSTMENT_FACTOR,
  cpuSlowdown: throttling.mobileSlow4G.cpuSlowdownMultiplier,
};
/** Kilobits a second (Lighthouse's, of 1,024 bits) as the bytes a second DevTools takes. */
const bytesPerSecond = (kbps: number) => (kbps * 1024) / 8;
const VISIT_TIMEOUT_MS = 60_000;
/** The function the page calls with its figures (exposeFunction). */
const REPORT_BINDING = "plumeReportFirstBook";

/** A first visit's times, in milliseconds from the navigation's start. */
export interface FirstBookVisit {
  firstContentfulPaint: number;
  /** When the first book was painted, or, below the first screen, drawn (see watchForFirstBook). */
  firstBook: number;
  /** Whether the first book was on the phone's first screen, so painted. */
  onFirstScreen: boolean;
  /** The load average of the last minute as the visit started. */
  loadAverage: number;
}

/**
 * Runs in the page before its own scripts: waits for the first element matching `selector` and reports
 * when it showed, with the page's first contentful paint. A book on the first screen is timed by
 * Element Timing, the browser's own paint time on the same clock as the paint entries: its title (or
 * the image itself) is marked `elementtiming` as soon as it is inserted, before a frame draws it. One
 * below the first screen is not painted until scrolled to: its time is the end of the frame that laid
 * it out (a message posted from that frame's requestAnimationFrame runs once its style, layout and
 * paint are done).
 */
function watchForFirstBook({ selector, binding }: { selector: string; binding: string }) {
  const report = (window as unknown as Record<string, (figures: Omit<FirstBookVisit, "loadAverage">) => void>)[binding]!;
  const firstEntry = <Entry extends PerformanceEntry>(type: string, isIt: (entry: Entry) => boolean) =>
    new Promise<Entry>((resolve) => {
      new PerformanceObserver((list, observer) => {
        const entry = (list.getEntries() as Entry[]).find(isIt);
        if (!entry) return;
        observer.disconnect();
        resolve(entry);
      }).observe({ type, buffered: true });
    });
  const firstContentfulPaint = firstEntry("paint", (entry) => entry.name === "first-contentful-paint");
  const bookPainted = firstEntry<PerformanceEntry & { identifier: string; renderTime: number }>("element", (entry) => entry.identifier === "first-book");
  const found = new Promise<Element>((resolve) => {
    const observer = new MutationObserver(() => {
      const book = document.querySelector(selector);
      if (!book) return;
      observer.disconnect();
      (book instanceof HTMLImageElement ? book : (book.querySelector("h1, h2, h3, h4") ?? book)).setAttribute("elementtiming", "first-book");
      resolve(book);
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const endOfNextFrame = () =>
    new Promise<number>((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );
  void found.then(async (book) => {
    const drawn = await endOfNextFrame();
    const onFirstScreen = book.getBoundingClientRect().top < innerHeight;
    const firstBook = onFirstScreen ? (await bookPainted).renderTime : drawn;
    report({ firstContentfulPaint: (await firstContentfulPaint).startTime, firstBook, onFirstScreen });
  });
}

/**
 * A function's source to run in the page with its argument. tsx (esbuild's keepNames) names the
 * functions inside with a helper of its own, `__name`, which the page has not: it is given one that
 * does nothing, in the script's own scope.
 */
const inPage = <Argument>(run: (argument: Argument) => void, argument: Argument) =>
  `((__name) => (${run.toString()})(${JSON.stringify(argument)}))((named) => named);`;

/**
 * One first visit to `path` in a new browser context, as Lighthouse's phone (its screen, SLOW_PHONE):
 * nothing cached, no cookie, the browser language en-US; timed until the first element matching
 * `selector` shows (a book card, a book page's cover).
 */
export async function visitForFirstBook(browser: Browser, baseUrl: string, path: string, selector: string): Promise<FirstBookVisit> {
  const { width, height, deviceScaleFactor } = screenEmulationMetrics.mobile;
  const loadAverage = loadavg()[0]!;
  const context = await browser.newContext({ baseURL: baseUrl, locale: "en-US", viewport: { width, height }, deviceScaleFactor, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    let report: (figures: Omit<FirstBookVisit, "loadAverage">) => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const reported = new Promise<Omit<FirstBookVisit, "loadAverage">>((resolve, reject) => {
      report = resolve;
      timer = setTimeout(() => reject(new Error(`${path} showed no ${selector} within ${VISIT_TIMEOUT_MS / 1000} s`)), VISIT_TIMEOUT_MS);
    });
    try {
      await page.exposeFunction(REPORT_BINDING, (figures: Omit<FirstBookVisit, "loadAverage">) => report(figures));
      await page.addInitScript({ content: inPage(watchForFirstBook, { selector, binding: REPORT_BINDING }) });
      const devtools = await context.newCDPSession(page);
      await devtools.send("Network.enable");
      await devtools.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: SLOW_PHONE.latencyMs,
        downloadThroughput: bytesPerSecond(SLOW_PHONE.downloadKbps),
        uploadThroughput: bytesPerSecond(SLOW_PHONE.uploadKbps),
      });
      await devtools.send("Emulation.setCPUThrottlingRate", { rate: SLOW_PHONE.cpuSlowdown });
      await page.goto(path, { waitUntil: "commit" });
      return { ...(await reported), loadAverage };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await context.close();
  }
}
