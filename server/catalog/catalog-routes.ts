import { type CatalogQuery, catalogQuerySchema } from "../../shared/book-schemas.ts";
import { presentBook } from "../books/present-book.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { likelyLanguage } from "../http/request-language.ts";
import { validate } from "../http/validate.ts";
import { readPublicStatsFresh } from "./public-stats-service.ts";
import { listCatalogPage } from "./search-rankings.ts";

/** The catalog's pages and the platform's public totals. */
export function catalogRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  const publicStats = readPublicStatsFresh(db);
  return new GuardedRouter("/api", adminEmail)
    .get("/books", validate("query", catalogQuerySchema), async (req, res) => {
      // Titles sort in the order of the reader's language: the answer depends on what names it.
      res.vary("Accept-Language").vary("Cookie");
      const books = await listCatalogPage(db, { ...(res.locals.query as CatalogQuery), readerLanguage: likelyLanguage(req) });
      res.json(books.map(presentBook));
    })
    .get("/stats/public", async (_req, res) => {
      res.json(await publicStats());
    });
}
