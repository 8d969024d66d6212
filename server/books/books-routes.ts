import type { Request } from "express";
import { type BookFields, authorIdSchema, bookFieldsSchema, bookIdSchema } from "../../shared/book-schemas.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import { countUploads } from "../system/metrics.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { canSeeBook, findVisibleBook, viewerOf } from "./books-policy.ts";
import { type BooksDeps, deleteBook, editBook, listBooksOfAuthor, publishBook } from "./books-service.ts";
import { presentBook } from "./present-book.ts";
import { parseUpload, receivedFiles } from "./upload-parser.ts";
import { readStorageUsage, refuseUploadsThatCannotFit } from "./storage-quota.ts";

interface BooksRoutesDeps extends BooksDeps {
  adminEmail: string | undefined;
  limits: AbuseLimits;
}

const bookIdOf = (locals: Record<string, unknown>) => (locals.params as { id: number }).id;

/** A book's own calls: publish, read, edit, withdraw, and an author's list. */
export function booksRoutes(deps: BooksRoutesDeps): GuardedRouter {
  const { db, store, limits, adminEmail, storageLimits } = deps;
  const presentVisibleBook = async (req: Request, id: number) => presentBook(await findVisibleBook(db, id, viewerOf(req, adminEmail)));

  return new GuardedRouter("/api", adminEmail)
    .post(
      "/books",
      countUploads,
      limits.upload,
      refuseUploadsThatCannotFit(deps, "file"),
      parseUpload(store, ["file", "coverImage"]),
      validate("body", bookFieldsSchema),
      async (req, res) => {
        const book = await publishBook(deps, req.user!, res.locals.body as BookFields, receivedFiles(req));
        res.status(201).json(await presentVisibleBook(req, book.id));
      },
    )
    .get("/books/:id", validate("params", bookIdSchema), async (req, res) => {
      res.json(await presentVisibleBook(req, bookIdOf(res.locals)));
    })
    .put(
      "/books/:id",
      validate("params", bookIdSchema),
      limits.upload,
      refuseUploadsThatCannotFit(deps, "coverImage"),
      parseUpload(store, ["coverImage"]),
      validate("body", bookFieldsSchema),
      async (req, res) => {
        await editBook(deps, req.user!, bookIdOf(res.locals), res.locals.body as BookFields, receivedFiles(req).coverImage);
        res.json(await presentVisibleBook(req, bookIdOf(res.locals)));
      },
    )
    .delete("/books/:id", validate("params", bookIdSchema), async (req, res) => {
      await deleteBook(deps, req.user!, bookIdOf(res.locals));
      res.status(204).end();
    })
    .get("/account/storage", async (req, res) => {
      res.json(await readStorageUsage(db, storageLimits, req.user!.id));
    })
    .get("/authors/:id/books", validate("params", authorIdSchema), async (req, res) => {
      // The author's dashboard lists their unpublished books too; anyone else sees only the published ones.
      const viewer = viewerOf(req, adminEmail);
      const books = await listBooksOfAuthor(db, (res.locals.params as { id: string }).id);
      res.json(books.filter((book) => canSeeBook(book, viewer)).map(presentBook));
    });
}
