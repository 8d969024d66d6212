import { z } from "zod";
import type { PublicStats } from "../../shared/books.ts";
import { catalogQuerySchema } from "../../shared/book-schemas.ts";
import { showsExplicit } from "../books/books-policy.ts";
import { presentBook } from "../books/present-book.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { likelyLanguage } from "../http/request-language.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { readCatalogPage } from "./catalog-answers.ts";

export interface CatalogRoutesDeps {
  db: Db;
  /**
   * The platform's totals, read at most once per few seconds (docs/decisions/0015): built once per app
   * (readPublicStatsFresh in ./public-stats-service.ts), so every call shares the one fresh copy.
   */
  publicStats: () => Promise<PublicStats>;
}

const route = routesOf<CatalogRoutesDeps>();

/** The catalog's pages and the platform's public totals. */
export const catalogRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/books",
      access: "public",
      summary: "A page of the catalog: published books, filtered, searched and sorted; explicit ones only for a reader who chose to see them",
      tag: "books",
      query: catalogQuerySchema,
      answer: { status: 200, description: "The page's books.", json: z.array(answers.bookCardSchema) },
      errors: [400],
    },
    async ({ query, caller, req, res }, { db }) => {
      // Titles sort in the order of the reader's language: the answer depends on what names it.
      res.vary("Accept-Language").vary("Cookie");
      // Kept per query until a write changes what it shows (docs/decisions/0077): the same ETag, and the
      // same bytes, whose compression is kept (docs/decisions/0078).
      // Explicit books only for a reader who chose to see them (docs/product.md#content-ratings), kept apart.
      const books = await readCatalogPage(db, { ...query, readerLanguage: likelyLanguage(req), showExplicit: showsExplicit(caller) });
      return books.map(presentBook);
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/stats/public",
      access: "public",
      summary: "The platform's totals over published books",
      tag: "platform",
      answer: { status: 200, description: "The totals.", json: answers.publicStatsSchema },
      errors: [],
    },
    (_call, { publicStats }) => publicStats(),
  ),
]);
