import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type { Request, Response } from "express";
import Negotiator from "negotiator";
import { bookIdSchema } from "../../shared/book-schemas.ts";
import { readingPositionSchema } from "../../shared/reading.ts";
import { viewerOf } from "../books/books-policy.ts";
import type { RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { AddressHasher } from "../downloads/address-hashes.ts";
import { GuardedRouter } from "../http/access.ts";
import { notFound } from "../http/errors.ts";
import { requestedRange } from "../http/send-file.ts";
import { validate } from "../http/validate.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import type { FileStore } from "../storage/file-store.ts";
import { type ReaderViewer, type ReadingDeps, findReadableBook, openBookToRead, readyWordView, saveReaderPosition } from "./reading-service.ts";
import type { WordViews } from "./word-views.ts";

interface ReadingRoutesDeps {
  db: Db;
  store: FileStore;
  adminEmail: string | undefined;
  countedPerIpPerBookPerDay: number;
  hashAddress: AddressHasher;
  rewards: RewardSettings;
  onPaymentsOwed: () => void;
  limits: AbuseLimits;
  wordViews: WordViews;
}

const bookIdOf = (res: Response) => (res.locals.params as { id: number }).id;

/** Reading in the browser (docs/product.md#reading): opening a book, its PDF or reading view, the reader's page. */
export function readingRoutes(deps: ReadingRoutesDeps): GuardedRouter {
  const { db, store, adminEmail, limits } = deps;
  const reading: ReadingDeps = deps;
  // The route table lets only signed-in callers reach these routes.
  const readerOf = (req: Request) => viewerOf(req, adminEmail) as ReaderViewer;

  return new GuardedRouter("/api", adminEmail)
    .post("/books/:id/read", validate("params", bookIdSchema), limits.download, async (req, res) => {
      const { opened, paymentsOwed } = await openBookToRead(reading, {
        bookId: bookIdOf(res),
        viewer: readerOf(req),
        ipAddress: req.countingAddress,
        at: new Date(),
      });
      if (paymentsOwed > 0) deps.onPaymentsOwed();
      res.setHeader("Cache-Control", "private, no-store");
      res.json(opened);
    })
    .get("/books/:id/read/file", validate("params", bookIdSchema), async (req, res) => {
      const book = await findReadableBook(db, bookIdOf(res), readerOf(req), "pdf");
      const file = await store.open("books", book.filePath).catch(() => {
        throw notFound("The file of this book is missing.");
      });
      try {
        const range = requestedRange(req, res, file.size);
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
    })
    .get("/books/:id/read/view", validate("params", bookIdSchema), limits.download, async (req, res) => {
      const name = await readyWordView(reading, bookIdOf(res), readerOf(req));
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
    })
    .put("/books/:id/read/position", validate("params", bookIdSchema), validate("body", readingPositionSchema), async (req, res) => {
      const { page } = res.locals.body as { page: number };
      await saveReaderPosition(reading, { bookId: bookIdOf(res), viewer: readerOf(req), page, at: new Date() });
      res.status(204).end();
    });
}
