import { authorIdSchema, bookIdSchema, downloadQuerySchema } from "../../shared/book-schemas.ts";
import { downloadReportQuerySchema } from "../../shared/download-report.ts";
import { findTakeableBook } from "../books/books-service.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { readAuthorStats } from "./author-stats-service.ts";
import { readDownloadReport } from "./download-report-service.ts";
import { sendCountedBookFile } from "./send-counted-file.ts";
import { type SendToEReaderDeps, sendBookToEReader } from "./send-to-e-reader.ts";

export interface DownloadsRoutesDeps extends SendToEReaderDeps {
  limits: AbuseLimits;
}

const route = routesOf<DownloadsRoutesDeps>();

const bookFileAnswer = "The file's media type: the book's own (application/pdf, application/msword or the DOCX type), or application/epub+zip";

/** A book's download and its mail to the reader's e-reader (where downloads are counted), an author's monthly counts and the report of what counted and why not. */
export const downloadsRoutes = routeGroup("/api", [
  route(
    {
      method: "POST",
      path: "/api/books/:id/download",
      access: "signed-in",
      summary: "Download a book, its own file or (?format=epub) the EPUB made of a Word book, or (?edition=N) an older edition's file; a counted download pays its author, once per reader whatever the file (docs/product.md#counting-downloads)",
      tag: "books",
      params: bookIdSchema,
      query: downloadQuerySchema,
      before: (deps) => [deps.limits.download],
      answer: { status: 200, description: "The book's file, as an attachment.", binary: bookFileAnswer },
      errors: [400, 404, 429],
    },
    async ({ params, query, caller, req, res }, deps) => {
      const listed = await findTakeableBook(deps.db, params.id, caller);
      await sendCountedBookFile(deps, { reader: caller, req, res }, listed, "download", query.format, query.edition);
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/books/:id/send-to-e-reader",
      access: "signed-in",
      summary: "Mail a book to the reader's e-reader address (the EPUB when it has one); counted as a download once it went (docs/product.md#send-to-e-reader)",
      tag: "books",
      params: bookIdSchema,
      // The day's sends first: a refused send then takes nothing from the hour's downloads.
      before: (deps) => [deps.limits.eReaderSend, deps.limits.download],
      answer: { status: 200, description: "Where the book went, under which name.", json: answers.sentToEReaderSchema },
      errors: [400, 403, 404, 409, 410, 413, 429, 451, 503],
    },
    async ({ params, caller, req }, deps) => sendBookToEReader(deps, caller, await findTakeableBook(deps.db, params.id, caller), req.countingAddress),
  ),
  route(
    {
      method: "GET",
      path: "/api/authors/:id/stats",
      access: "public",
      summary: "An author's counted downloads, in total and by month",
      tag: "authors",
      params: authorIdSchema,
      answer: { status: 200, description: "The figures.", json: answers.authorStatsSchema },
      errors: [400],
    },
    ({ params }, { db }) => readAuthorStats(db, params.id, new Date()),
  ),
  route(
    {
      method: "GET",
      path: "/api/authors/:id/download-report",
      access: "account-or-admin",
      summary: "An author's logged downloads per book and month, counted or not counted with the reason (the author's own, or the admin)",
      tag: "authors",
      params: authorIdSchema,
      query: downloadReportQuerySchema,
      answer: { status: 200, description: "The report; each book's counted and not counted add up to its logged downloads.", json: answers.downloadReportSchema },
      errors: [400, 404],
    },
    ({ params, query, caller }, { db }) => readDownloadReport(db, caller, params.id, query.months, new Date()),
  ),
]);
