import { authorIdSchema, bookIdSchema } from "../../shared/book-schemas.ts";
import { type DownloadReportQuery, downloadReportQuerySchema } from "../../shared/download-report.ts";
import { findVisibleBook, viewerOf } from "../books/books-policy.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { readAuthorStats } from "./author-stats-service.ts";
import { readDownloadReport } from "./download-report-service.ts";
import { type CountedFileDeps, sendCountedBookFile } from "./send-counted-file.ts";

interface DownloadsRoutesDeps extends CountedFileDeps {
  adminEmail: string | undefined;
  limits: AbuseLimits;
}

/** A book's download (where downloads are counted), an author's monthly counts and the report of what counted and why not. */
export function downloadsRoutes(deps: DownloadsRoutesDeps): GuardedRouter {
  const { db, limits, adminEmail } = deps;
  return new GuardedRouter("/api", adminEmail)
    .post("/books/:id/download", validate("params", bookIdSchema), limits.download, async (req, res) => {
      const listed = await findVisibleBook(db, (res.locals.params as { id: number }).id, viewerOf(req, adminEmail));
      await sendCountedBookFile(deps, req, res, listed, "download");
    })
    .get("/authors/:id/stats", validate("params", authorIdSchema), async (_req, res) => {
      res.json(await readAuthorStats(db, (res.locals.params as { id: string }).id, new Date()));
    })
    .get("/authors/:id/download-report", validate("params", authorIdSchema), validate("query", downloadReportQuerySchema), async (req, res) => {
      const { id } = res.locals.params as { id: string };
      const { months } = res.locals.query as DownloadReportQuery;
      res.json(await readDownloadReport(db, req.user!, id, months, new Date(), adminEmail));
    });
}
