import type { RequestHandler, Response } from "express";
import { bookIdSchema } from "../../shared/book-schemas.ts";
import { type OpdsPageQuery, type OpdsSearchQuery, opdsGenreParamsSchema, opdsLanguageParamsSchema, opdsPageQuerySchema, opdsSearchQuerySchema } from "../../shared/opds.ts";
import type { BookLanguage } from "../../shared/books.ts";
import type { GenreKey } from "../../shared/genres.ts";
import { findVisibleBook, viewerOf } from "../books/books-policy.ts";
import { type CountedFileDeps, sendCountedBookFile } from "../downloads/send-counted-file.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { eReaderKeyAuth } from "./e-reader-key-auth.ts";
import { ACQUISITION_TYPE, type CatalogSite, NAVIGATION_TYPE, genresFeed, languagesFeed, openSearchDescription, rootFeed } from "./opds-feeds.ts";
import { type BookList, acquisitionFeedPage } from "./opds-service.ts";

interface OpdsRoutesDeps extends CountedFileDeps {
  adminEmail: string | undefined;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  limits: AbuseLimits;
}

/** Feeds change as books are published and downloaded: a minute's caching spares the catalog a client's repeated reads. */
const FEED_CACHE = "public, max-age=60";

function sendXml(res: Response, type: string, xml: string) {
  res.setHeader("Content-Type", `${type}; charset=utf-8`);
  res.setHeader("Cache-Control", FEED_CACHE);
  res.send(xml);
}

/**
 * The OPDS 1.2 catalog for e-reader apps (docs/product.md#opds): feeds and search open to anyone,
 * a book's file only with an e-reader key, counted by the same rule as every download.
 */
export function opdsRoutes(deps: OpdsRoutesDeps): GuardedRouter {
  const { db, adminEmail, limits } = deps;
  const site: CatalogSite = { origin: deps.origin, productName: deps.productName };
  const eReaderKey = eReaderKeyAuth({ db, productName: deps.productName, failureLimit: limits.eReaderKeyFailures });

  const navigation = (feed: (site: CatalogSite, at: Date) => string): RequestHandler => (_req, res) => sendXml(res, NAVIGATION_TYPE, feed(site, new Date()));
  const acquisition =
    (listOf: (res: Response) => BookList): RequestHandler =>
    async (req, res) => {
      const xml = await acquisitionFeedPage(db, site, listOf(res), res.locals.query as OpdsPageQuery, new Date());
      sendXml(res, ACQUISITION_TYPE, xml);
    };

  return new GuardedRouter("/opds", adminEmail, { eReaderKey })
    .get("/", navigation(rootFeed))
    .get("/genres", navigation(genresFeed))
    .get("/languages", navigation(languagesFeed))
    .get("/new", validate("query", opdsPageQuerySchema), acquisition(() => ({ kind: "newest" })))
    .get("/popular", validate("query", opdsPageQuerySchema), acquisition(() => ({ kind: "popular" })))
    .get(
      "/genres/:genre",
      validate("params", opdsGenreParamsSchema),
      validate("query", opdsPageQuerySchema),
      acquisition((res) => ({ kind: "genre", genre: (res.locals.params as { genre: GenreKey }).genre })),
    )
    .get(
      "/languages/:language",
      validate("params", opdsLanguageParamsSchema),
      validate("query", opdsPageQuerySchema),
      acquisition((res) => ({ kind: "language", language: (res.locals.params as { language: BookLanguage }).language })),
    )
    .get("/search", validate("query", opdsSearchQuerySchema), acquisition((res) => ({ kind: "search", terms: (res.locals.query as OpdsSearchQuery).q })))
    .get("/opensearch.xml", (_req, res) => sendXml(res, "application/opensearchdescription+xml", openSearchDescription(site)))
    .get("/books/:id/file", validate("params", bookIdSchema), limits.download, async (req, res) => {
      const listed = await findVisibleBook(db, (res.locals.params as { id: number }).id, viewerOf(req, adminEmail));
      await sendCountedBookFile(deps, req, res, listed, "opds");
    });
}
