import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Negotiator from "negotiator";
import { bookIdSchema } from "../../shared/book-schemas.ts";
import { readingPositionSchema } from "../../shared/reading.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { notFound } from "../http/errors.ts";
import { requestedRange } from "../http/send-file.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { EPUB_MIME_TYPE } from "../books/book-files.ts";
import { type ReadingDeps, findReadableBook, findReadableEpub, openBookToRead, readyWordView, saveReaderPosition } from "./reading-service.ts";

export interface ReadingRoutesDeps extends ReadingDeps {
  onPaymentsOwed: () => void;
  limits: AbuseLimits;
}

const route = routesOf<ReadingRoutesDeps>();

/** Reading in the browser (docs/product.md#reading): opening a book, its PDF, EPUB or reading view, the reader's page. */
export const readingRoutes = routeGroup("/api", [
  // Reading in the browser: the book's content and a position only for a reader who opened it
  // (server/reading/reading-policy.ts); each of these routes is for signed-in readers.
  route(
    {
      method: "POST",
      path: "/api/books/:id/read",
      access: "signed-in",
      summary: "Open a book to read in the browser; it counts exactly like a download",
      tag: "reading",
      params: bookIdSchema,
      before: (deps) => [deps.limits.download],
      answer: { status: 200, description: "The book as the reader shows it, and the page this reader was on.", json: answers.openedBookSchema },
      errors: [400, 404, 429],
    },
    async ({ params, caller, req, res }, deps) => {
      const { opened, paymentsOwed } = await openBookToRead(deps, {
        bookId: params.id,
        viewer: caller,
        ipAddress: req.countingAddress,
        at: new Date(),
      });
      if (paymentsOwed > 0) deps.onPaymentsOwed();
      res.setHeader("Cache-Control", "private, no-store");
      return opened;
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id/read/file",
      access: "signed-in",
      summary: "The file of a PDF book the caller opened, for the reader (byte ranges allowed)",
      tag: "reading",
      params: bookIdSchema,
      answer: {
        status: 200,
        description: "The PDF, whole, or the range asked for (206). The whole file counts against the download limit, a range its megabytes against the reader's hourly limit.",
        binary: "application/pdf",
      },
      errors: [400, 404, 416, 429],
    },
    async ({ params, caller, req, res }, { db, store, limits }) => {
      const book = await findReadableBook(db, params.id, caller, "pdf");
      const file = await store.open("books", book.filePath).catch(() => {
        throw notFound("The file of this book is missing.");
      });
      try {
        const range = requestedRange(req, res, file.size);
        // The limit weighs what is asked (the whole file or a range), so it runs once the range is read.
        await limits.readFile(req, res, range);
        res.setHeader("Content-Type", book.mimeType);
        res.setHeader("Accept-Ranges", "bytes");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "private, no-store");
        if (range) {
          res.status(206);
          res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
          res.setHeader("Content-Length", String(range.end - range.start + 1));
        } else {
          res.setHeader("Content-Length", String(file.size));
        }
        await file.send(res, range);
      } finally {
        await file.close();
      }
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id/read/epub",
      access: "signed-in",
      summary: "The EPUB of a book the caller opened, for the reader: the book's own, or the one Plume made from a Word book",
      tag: "reading",
      params: bookIdSchema,
      answer: {
        status: 200,
        description: "The EPUB, whole (the reader unzips it in the browser). It counts against the download limit, as a PDF's whole file does.",
        binary: EPUB_MIME_TYPE,
      },
      errors: [400, 404, 409, 429],
    },
    async ({ params, caller, req, res }, { db, store, limits }) => {
      const epub = await findReadableEpub(db, params.id, caller);
      const file = await store.open(epub.kind, epub.name).catch(() => {
        throw notFound("The file of this book is missing.");
      });
      try {
        await limits.readFile(req, res, undefined);
        res.setHeader("Content-Type", EPUB_MIME_TYPE);
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "private, no-store");
        res.setHeader("Content-Length", String(file.size));
        await file.send(res);
      } finally {
        await file.close();
      }
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id/read/view",
      access: "signed-in",
      summary: "The reading view of a Word book the caller opened",
      tag: "reading",
      params: bookIdSchema,
      before: (deps) => [deps.limits.download],
      answer: { status: 200, description: "Its pages as sanitized HTML (made once, at the first opening; docs/decisions/0051).", json: answers.wordViewSchema },
      // 422 book_view_unavailable: it cannot be made; 503 book_view_preparing or server_busy, with Retry-After.
      errors: [400, 404, 422, 429, 503],
    },
    // Sent as stored (gzipped JSON), not returned: the answer is the stored file itself.
    async ({ params, caller, req, res }, deps) => {
      const { store } = deps;
      const name = await readyWordView(deps, params.id, caller);
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Cache-Control", "private, no-store");
      // Stored gzipped: sent as it is, and unpacked here only for the rare client that takes no gzip.
      if (new Negotiator(req).encoding(["gzip", "identity"]) !== "gzip") {
        await store.withLocalFile("views", name, (path) => pipeline(createReadStream(path), createGunzip(), res));
        return;
      }
      const view = await store.open("views", name).catch(() => {
        // Removed since: the book was deleted.
        throw notFound("The file of this book is missing.");
      });
      try {
        res.setHeader("Content-Encoding", "gzip");
        res.setHeader("Content-Length", String(view.size));
        await view.send(res);
      } finally {
        await view.close();
      }
    },
  ),
  route(
    {
      method: "PUT",
      path: "/api/books/:id/read/position",
      access: "signed-in",
      summary: "Remember the page the caller is on in a book they opened",
      tag: "reading",
      params: bookIdSchema,
      body: readingPositionSchema,
      answer: { status: 204, description: "Remembered." },
      // A Word book's pages are known once its view is made: 422 and 503 as for the view.
      errors: [400, 404, 422, 503],
    },
    ({ params, body, caller }, deps) => saveReaderPosition(deps, { bookId: params.id, viewer: caller, position: body, at: new Date() }),
  ),
]);
