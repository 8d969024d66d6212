import type { RequestHandler } from "express";
import { bookIdOfSegment } from "../../shared/book-urls.ts";
import { infoPageAt } from "../../shared/info-pages.ts";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import { LANGUAGE_PARAM } from "../../shared/page-meta.ts";
import { isScreenPath } from "../../shared/screens.ts";
import type { Db } from "../db/client.ts";
import type { PageHead } from "../http/app-page.ts";
import { authorPageReads, bookPageReads } from "../http/first-screen-reads.ts";
import { likelyLanguage } from "../http/request-language.ts";
import { seriesIdSchema } from "../../shared/series-and-tags.ts";
import { readPublicSeriesPage } from "../series/series-service.ts";
import { type PageContext, renderReaderHead, renderSeriesHead, renderAuthorHead, renderBookHead, renderExplicitBookHead, renderInfoPageHead, renderNotFoundHead } from "./head-tags.ts";
import { readAuthorProfile, readBookPage, readPublicReaderPage } from "./pages-service.ts";

const BOOK_PAGE = /^\/books\/([^/]+)\/?$/;
const AUTHOR_PAGE = /^\/authors\/([^/]+)\/?$/;
const SERIES_PAGE = /^\/series\/([^/]+)\/?$/;
const READER_PAGE = /^\/readers\/([^/]+)\/?$/i;

/**
 * The heads of the book and author pages (docs/product.md#book-pages) and of the info pages
 * (docs/product.md#info-pages), made before the app's page is
 * sent (server/http/serve-client.ts reads `res.locals.pageHead`): the page's own metadata, or the
 * 404 screen's with status 404 for an id that is malformed, unknown, deleted, unpublished or hidden
 * (410 or 451 for a book moderation removed, docs/product.md#moderation). A path
 * that no screen shows (shared/screens.ts) gets the 404 screen's head and status too, so that crawlers,
 * link checkers and monitoring see the miss the app's 404 screen shows (docs/product.md#screens). Not a
 * route of its own: these are the browser app's pages, and every other screen goes on untouched.
 */
export function pageHeads({ db, origin }: { db: Db; origin: string }): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const bookSegment = BOOK_PAGE.exec(req.path)?.[1];
    const authorSegment = bookSegment === undefined ? AUTHOR_PAGE.exec(req.path)?.[1] : undefined;
    const seriesSegment = SERIES_PAGE.exec(req.path)?.[1];
    const readerSegment = READER_PAGE.exec(req.path)?.[1];
    const infoPage = infoPageAt(req.path);
    const hasOwnHead =
      bookSegment !== undefined || authorSegment !== undefined || seriesSegment !== undefined || readerSegment !== undefined || infoPage !== undefined;
    if (!hasOwnHead && isScreenPath(req.path)) return next();

    const language = likelyLanguage(req);
    const notFoundHead: PageHead = { status: 404, language, tags: renderNotFoundHead(language) };
    if (!hasOwnHead) {
      res.locals.pageHead = notFoundHead;
      return next();
    }
    const context: PageContext = {
      origin,
      language,
      languageAddressed: req.query[LANGUAGE_PARAM] === language,
    };
    try {
      if (readerSegment !== undefined) {
        const reader = await readPublicReaderPage(db, readerSegment);
        res.locals.pageHead = reader ? { status: 200, language, tags: renderReaderHead(reader, context) } : notFoundHead;
      } else if (infoPage) {
        res.locals.pageHead = { status: 200, language, tags: renderInfoPageHead(infoPage, context) };
      } else if (bookSegment !== undefined) {
        const id = bookIdOfSegment(bookSegment);
        const page = id === undefined ? undefined : await readBookPage(db, id);
        if (page && "book" in page && page.book.contentRating === "explicit") {
          res.locals.pageHead = { status: 200, language, tags: renderExplicitBookHead(language) };
        } else if (page && "book" in page) {
          res.locals.pageHead = { status: 200, language, tags: renderBookHead(page.book, context, page.reviews), reads: bookPageReads(page.book) };
        } else {
          res.locals.pageHead = { ...notFoundHead, status: page?.status ?? 404 };
          // RFC 7725: who blocks a page unavailable for legal reasons.
          if (page?.status === 451) res.setHeader("Link", `<${origin}/terms>; rel="blocked-by"`);
        }
      } else if (seriesSegment !== undefined) {
        // As a visitor sees it: listed volumes, none explicit (docs/product.md#series-and-tags).
        const seriesId = seriesIdSchema.safeParse({ id: seriesSegment });
        const page = seriesId.success ? await readPublicSeriesPage(db, seriesId.data.id) : undefined;
        res.locals.pageHead = page ? { status: 200, language, tags: renderSeriesHead(page, context), reads: [`/api/series/${page.id}`] } : notFoundHead;
      } else {
        const authorId = authorIdSchema.safeParse({ id: authorSegment });
        const profile = authorId.success ? await readAuthorProfile(db, authorId.data.id, false) : undefined;
        res.locals.pageHead = profile
          ? { status: 200, language, tags: renderAuthorHead(profile, context), reads: authorPageReads(profile.author.id) }
          : notFoundHead;
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
