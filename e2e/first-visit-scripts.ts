import { gzipSync } from "node:zlib";
import { type Browser, request } from "playwright-core";
import { bookPath } from "../shared/book-urls.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { newVisitor } from "./browser.ts";

/** The first visit's budget (docs/decisions/0016, 0076): a first visit runs at most this much JavaScript, gzipped. */
export const INITIAL_SCRIPT_BUDGET_BYTES = 100 * 1024;

export interface FetchedScript {
  /** Its path on the server, e.g. /assets/index-3fa1.js. */
  url: string;
  /** Its body gzipped at level 9: the budget's measure, whatever encoding the server chose. */
  gzipped: number;
  /** The bytes that came over the wire (the server sends its precompressed brotli or gzip). */
  transferred: number;
}

/** Every script a fresh visitor's browser fetched to show a page. */
export async function scriptsOfFirstVisit(browser: Browser, baseUrl: string, path: string, locale: string): Promise<FetchedScript[]> {
  const context = await newVisitor(browser, baseUrl, locale);
  try {
    const page = await context.newPage();
    const scripts: Array<Promise<FetchedScript>> = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      scripts.push(
        Promise.all([response.body(), response.request().sizes()]).then(([body, sizes]) => ({
          url: new URL(response.url()).pathname,
          gzipped: gzipSync(body, { level: 9 }).length,
          transferred: sizes.responseBodySize,
        })),
      );
    });
    await page.goto(path, { waitUntil: "networkidle" });
    return await Promise.all(scripts);
  } finally {
    await context.close();
  }
}

export const totalGzipped = (scripts: FetchedScript[]) => scripts.reduce((sum, script) => sum + script.gzipped, 0);

/** The languages whose first-screen texts were fetched: one chunk per language, /assets/<language>-<hash>.js. */
export const localeChunks = (scripts: Array<{ url: string }>) =>
  scripts.map(({ url }) => /\/assets\/(en|es|fr)-[\w-]+\.js$/.exec(url)?.[1]).filter(Boolean);

/** The page of a book published for the measure by an author of its own (with a cover, as most books have). */
export async function publishedBookPath(baseUrl: string): Promise<string> {
  const api = await request.newContext({ baseURL: baseUrl });
  try {
    await registerAccount(api, { firstName: "Ana", lastName: "Medida" });
    const title = "A first visit";
    const id = await publishPdf(api, { title, description: "A book whose page is measured.", language: "en", withCover: true });
    return bookPath({ id, title });
  } finally {
    await api.dispose();
  }
}
