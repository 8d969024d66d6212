import { z } from "zod";
import { authorIdSchema, bookFieldsSchema, bookIdSchema } from "../../shared/book-schemas.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { countUploads } from "../system/metrics.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { canSeeBook, isRatingShownTo } from "./books-policy.ts";
import { type BooksDeps, deleteBook, editBook, findVisibleBook, listBooksOfAuthor, publishBook } from "./books-service.ts";
import { presentBook } from "./present-book.ts";
import { parseUpload, receivedFiles } from "./upload-parser.ts";
import { readStorageUsage, refuseUploadsThatCannotFit } from "./storage-quota.ts";
import { editionFieldsSchema } from "../../shared/editions.ts";
import { findBookForNewEdition, publishEdition, readBookEditions } from "./editions-service.ts";
import type { RequestHandler } from "express";
import { signedInCallerOf } from "../http/access.ts";

/** Someone else's book, or a deleted one, is refused before the form's body is read: no file travels for nothing. */
const ownBookFirst =
  ({ db }: Pick<BooksRoutesDeps, "db">): RequestHandler =>
  (req, _res, next) => {
    findBookForNewEdition(db, Number(req.params.id), signedInCallerOf(req)).then(() => next(), next);
  };

export interface BooksRoutesDeps extends BooksDeps {
  limits: AbuseLimits;
}

const route = routesOf<BooksRoutesDeps>();

/** A book's own calls: publish, read, edit, withdraw, and an author's list. */
export const booksRoutes = routeGroup("/api", [
  route(
    {
      method: "POST",
      path: "/api/books",
      access: "signed-in",
      summary:
        "Publish a book (PDF, DOC, DOCX or EPUB, an optional cover; an EPUB refused with 422 epub_* codes, docs/decisions/0095); 409 duplicate_file for the file of another account's book, duplicate_own_file for one's own; the same text as another account's book is published hidden (docs/decisions/0091)",
      tag: "books",
      before: (deps) => [countUploads, deps.limits.upload, refuseUploadsThatCannotFit(deps, "file"), parseUpload(deps.store, ["file", "coverImage"])],
      body: { form: bookFieldsSchema, files: { file: true, coverImage: false } },
      answer: { status: 201, description: "The published book.", json: answers.bookCardSchema },
      errors: [400, 409, 413, 415, 422, 429, 503],
    },
    async ({ caller, body, req }, deps) => {
      const book = await publishBook(deps, caller, body, receivedFiles(req));
      return presentBook(await findVisibleBook(deps.db, book.id, caller));
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id",
      access: "public",
      summary: "A book (an unpublished one only for its author and the admin)",
      tag: "books",
      params: bookIdSchema,
      answer: { status: 200, description: "The book.", json: answers.bookCardSchema },
      errors: [400, 404],
    },
    async ({ params, caller }, { db }) => presentBook(await findVisibleBook(db, params.id, caller)),
  ),
  route(
    {
      method: "PUT",
      path: "/api/books/:id",
      access: "book-author",
      summary: "Edit one's own book: its fields, and optionally a new cover",
      tag: "books",
      params: bookIdSchema,
      before: (deps) => [deps.limits.upload, refuseUploadsThatCannotFit(deps, "coverImage"), parseUpload(deps.store, ["coverImage"])],
      body: { form: bookFieldsSchema, files: { coverImage: false } },
      answer: { status: 200, description: "The book as edited.", json: answers.bookCardSchema },
      errors: [400, 404, 413, 415, 429, 503],
    },
    async ({ params, caller, body, req }, deps) => {
      await editBook(deps, caller, params.id, body, receivedFiles(req).coverImage);
      return presentBook(await findVisibleBook(deps.db, params.id, caller));
    },
  ),
  route(
    {
      method: "DELETE",
      path: "/api/books/:id",
      access: "book-author",
      summary: "Withdraw one's own book",
      tag: "books",
      params: bookIdSchema,
      answer: { status: 204, description: "Withdrawn." },
      errors: [400, 404],
    },
    async ({ params, caller }, deps) => deleteBook(deps, caller, params.id),
  ),
  route(
    {
      method: "POST",
      path: "/api/books/:id/editions",
      access: "book-author",
      summary:
        "Publish a new edition of one's book: a file checked as an upload is (PDF, DOC, DOCX or EPUB; the format may change) and a changelog; the book keeps its page, counts and reviews (docs/product.md#editions); 409 edition_unchanged for the current file, 429 edition_limit past the day's editions",
      tag: "books",
      params: bookIdSchema,
      before: (deps) => [ownBookFirst(deps), deps.limits.editions, deps.limits.upload, refuseUploadsThatCannotFit(deps, "file"), parseUpload(deps.store, ["file"])],
      body: { form: editionFieldsSchema, files: { file: true } },
      answer: { status: 201, description: "The book's editions, the new one first.", json: answers.bookEditionsSchema },
      errors: [400, 403, 404, 409, 413, 415, 422, 429, 503],
    },
    async ({ params, caller, body, req }, deps) => {
      await publishEdition(deps, caller, params.id, body, receivedFiles(req).file);
      return readBookEditions(deps.db, params.id, caller);
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/books/:id/editions",
      access: "public",
      summary: "A book's editions, newest first (number, date, changelog, format, size), and the one the signed-in caller last took (docs/product.md#editions)",
      tag: "books",
      params: bookIdSchema,
      answer: { status: 200, description: "The editions.", json: answers.bookEditionsSchema },
      errors: [400, 404],
    },
    ({ params, caller }, { db }) => readBookEditions(db, params.id, caller),
  ),
  route(
    {
      method: "GET",
      path: "/api/account/storage",
      access: "signed-in",
      summary: "What the account's books keep and the most they may keep (docs/decisions/0055)",
      tag: "books",
      answer: { status: 200, description: "The storage used and its limit, in bytes.", json: answers.storageUsageSchema },
      errors: [],
    },
    ({ caller }, { db, storageLimits }) => readStorageUsage(db, storageLimits, caller.id),
  ),
  route(
    {
      method: "GET",
      path: "/api/authors/:id/books",
      access: "public",
      summary: "An author's books (unpublished ones only for the author and the admin)",
      tag: "authors",
      params: authorIdSchema,
      answer: { status: 200, description: "The books, newest first.", json: z.array(answers.bookCardSchema) },
      errors: [400],
    },
    // The author's dashboard lists their unpublished books too; anyone else sees only the published ones,
    // explicit ones only if they chose to see them (docs/product.md#content-ratings).
    async ({ params, caller }, { db }) =>
      (await listBooksOfAuthor(db, params.id)).filter((book) => canSeeBook(book, caller) && isRatingShownTo(book, caller)).map(presentBook),
  ),
]);
