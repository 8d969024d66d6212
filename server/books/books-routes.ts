import { type Request, Router } from "express";
import { type BookFields, type CatalogQuery, bookFieldsSchema, bookIdSchema, catalogQuerySchema } from "../../shared/book-schemas.ts";
import { requireAuth } from "../http/require-auth.ts";
import type { RewardSettings } from "../config.ts";
import { type Viewer, findVisibleBook } from "./books-policy.ts";
import { type BooksDeps, deleteBook, editBook, publishBook } from "./books-service.ts";
import { recordDownload } from "../downloads/downloads-service.ts";
import { extensionOf } from "./file-types.ts";
import { presentBook } from "./present-book.ts";
import { listCatalogPage } from "../catalog/search-rankings.ts";
import { parseUpload, receivedFiles } from "./upload-parser.ts";
import { notFound } from "../http/errors.ts";
import { openFileToSend, sendFileBody } from "../http/send-file.ts";
import { validate } from "../http/validate.ts";
import { countingAddressOf } from "../security/client-address.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { downloadFileName } from "../downloads/download-name.ts";

interface BooksRoutesDeps extends BooksDeps {
  adminEmail: string | undefined;
  countedPerIpPerBookPerDay: number;
  rewards: RewardSettings;
  /** Called when a download made payments owed, so they go out without waiting a round. */
  onPaymentsOwed: () => void;
  limits: AbuseLimits;
}

export function booksRoutes(deps: BooksRoutesDeps): Router {
  const { db, store, limits } = deps;
  const router = Router();
  const bookId = (locals: Record<string, unknown>) => (locals.params as { id: number }).id;

  const viewerOf = (req: Request): Viewer => ({ user: req.user, adminEmail: deps.adminEmail });
  const presentVisibleBook = async (req: Request, id: number) => presentBook(await findVisibleBook(db, id, viewerOf(req)));

  router.get("/", validate("query", catalogQuerySchema), async (_req, res) => {
    const books = await listCatalogPage(db, res.locals.query as CatalogQuery);
    res.json(books.map(presentBook));
  });

  router.post("/", requireAuth, limits.upload, parseUpload(store, ["file", "coverImage"]), validate("body", bookFieldsSchema), async (req, res) => {
    const book = await publishBook(deps, req.user!, res.locals.body as BookFields, receivedFiles(req));
    res.status(201).json(await presentVisibleBook(req, book.id));
  });

  router.get("/:id", validate("params", bookIdSchema), async (req, res) => {
    res.json(await presentVisibleBook(req, bookId(res.locals)));
  });

  router.put(
    "/:id",
    requireAuth,
    validate("params", bookIdSchema),
    limits.upload,
    parseUpload(store, ["coverImage"]),
    validate("body", bookFieldsSchema),
    async (req, res) => {
      await editBook(deps, req.user!, bookId(res.locals), res.locals.body as BookFields, receivedFiles(req).coverImage);
      res.json(await presentVisibleBook(req, bookId(res.locals)));
    },
  );

  router.delete("/:id", requireAuth, validate("params", bookIdSchema), async (req, res) => {
    await deleteBook(deps, req.user!, bookId(res.locals));
    res.status(204).end();
  });

  router.post("/:id/download", requireAuth, validate("params", bookIdSchema), limits.download, async (req, res) => {
    const listed = await findVisibleBook(db, bookId(res.locals), viewerOf(req));
    // A download that cannot be served must not count: the file is opened before the transaction.
    const file = await openFileToSend(store.pathOf("books", listed.filePath)).catch(() => {
      throw notFound("The file of this book is missing.");
    });
    try {
      const { book, paymentsOwed } = await recordDownload(db, {
        bookId: listed.id,
        readerId: req.user!.id,
        ipAddress: req.ip && countingAddressOf(req.ip),
        at: new Date(),
        countedPerIpPerBookPerDay: deps.countedPerIpPerBookPerDay,
        rewards: deps.rewards,
      });
      if (paymentsOwed > 0) deps.onPaymentsOwed();
      res.attachment(downloadFileName(book.title, extensionOf(book.filePath)));
      res.setHeader("Content-Type", book.mimeType);
      res.setHeader("Content-Length", String(file.size));
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Cache-Control", "private, no-store");
      await sendFileBody(res, file);
    } finally {
      await file.handle.close();
    }
  });

  return router;
}
