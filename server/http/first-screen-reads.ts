import type { Request } from "express";
import { CATALOG_PAGE_SIZE } from "../../shared/books.ts";
import type { BookLanguage } from "../../shared/books.ts";
import { isBookLanguage, shownCatalogFilters } from "../../shared/catalog-address.ts";
import { cookieValue } from "../../shared/cookies.ts";
import {
  AUTHORS_API,
  BOOK_LANGUAGE_COOKIE,
  BOOKS_API,
  CURRENT_USER_API,
  FEATURED_BOOK_COUNT,
  bookListApi,
} from "../../shared/first-screen-reads.ts";

/** The reads of the book and author pages, which the page's head already looked the book or author up for (server/pages/page-heads.ts). */
export const bookPageReads = (book: { id: number; author: { id: string } }) => [`${BOOKS_API}/${book.id}`, `${AUTHORS_API}/${book.author.id}`];
export const authorPageReads = (authorId: string) => [`${AUTHORS_API}/${authorId}`];

/** The book language the reader last chose in the catalog (client/src/lib/book-language-choice.ts keeps it in a cookie), if any. */
function rememberedBookLanguage(req: Request): BookLanguage | undefined {
  const language = cookieValue(req.headers.cookie ?? "", BOOK_LANGUAGE_COOKIE);
  return isBookLanguage(language) ? language : undefined;
}

/**
 * The landing page's featured books, in the book language the reader chose. Its figures and the offer's
 * end (/api/stats/public, /api/config) are left to the app: below the first screen on a phone, they
 * would make seven requests at once with the session check and the three scripts, where HTTP/1.1 gives
 * a page six connections (docs/decisions/0080).
 */
const landingReads = (req: Request) => [bookListApi({ language: rememberedBookLanguage(req), limit: FEATURED_BOOK_COUNT, offset: 0 })];

/**
 * The catalog's first page for the filters its address names, as client/src/features/catalog asks for
 * it: an address naming no language shows the one the reader chose last (docs/product.md#catalog-by-language).
 */
function catalogReads(req: Request): string[] {
  const queryStart = req.originalUrl.indexOf("?");
  const { search, genre, sort, tag, language } = shownCatalogFilters(queryStart < 0 ? "" : req.originalUrl.slice(queryStart + 1), rememberedBookLanguage(req));
  return [bookListApi({ search: search || undefined, genre, sort, tag, language, limit: CATALOG_PAGE_SIZE, offset: 0 })];
}

/**
 * The API reads the screen at a request's address makes as soon as it is drawn: every screen's header
 * asks who is signed in, and the landing page, the catalog and the book and author pages read what they
 * show (`pageReads`, from their head). The app's page names them as preloads, so that the browser asks
 * for them while it fetches the scripts, and the screens' first fetches take the answers already in
 * (docs/decisions/0080): a first visit's cards no longer wait for the script to ask.
 */
export function firstScreenReads(req: Request, pageReads: readonly string[] = []): string[] {
  const screenReads = req.path === "/" ? landingReads(req) : req.path === "/catalog" ? catalogReads(req) : pageReads;
  return [CURRENT_USER_API, ...screenReads];
}

/**
 * Preloads as the app's fetches ask: `as="fetch"` with the session cookie (`credentials: "include"`,
 * hence `use-credentials`), or the browser keeps the answer apart and the app asks a second time.
 */
export const fetchPreloads = (reads: readonly string[]) =>
  reads.map((read) => `  <link rel="preload" as="fetch" crossorigin="use-credentials" href="${read.replaceAll("&", "&amp;")}">\n`).join("");
