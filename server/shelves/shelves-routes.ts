import {
  continueReadingQuerySchema,
  readerParamsSchema,
  shelfBookParamsSchema,
  shelfChoiceSchema,
  shelfPageQuerySchema,
  shelfParamsSchema,
} from "../../shared/shelf-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { readContinueReading, readPublicReader, readShelf, readShelfMap, readTakenBooks, shelveBook, unshelveBook } from "./shelves-service.ts";

export interface ShelvesRoutesDeps {
  db: Db;
  limits: AbuseLimits;
}

const route = routesOf<ShelvesRoutesDeps>();

/** A reader's shelves, "Continue reading", "My books" and public shelves (docs/product.md#shelves). */
export const shelvesRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/shelves",
      access: "signed-in",
      summary: "The caller's shelved books by id, for the book cards: one request for a whole screen",
      tag: "shelves",
      answer: { status: 200, description: "Each shelved book's shelf, by book id.", json: answers.shelfMapSchema },
      errors: [],
    },
    ({ caller }, { db }) => readShelfMap(db, caller),
  ),
  route(
    {
      method: "PUT",
      path: "/api/shelves/:bookId",
      access: "signed-in",
      summary: "Put a listed book on one of the caller's shelves (Want to read, Reading, Read), off any other",
      tag: "shelves",
      params: shelfBookParamsSchema,
      body: shelfChoiceSchema,
      before: (deps) => [deps.limits.shelve],
      answer: { status: 200, description: "The book's shelf.", json: answers.shelfEntrySchema },
      errors: [400, 404, 410, 429, 451],
    },
    ({ params, body, caller }, { db }) => shelveBook(db, caller, params.bookId, body.shelf, new Date()),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/shelves/:bookId",
      access: "signed-in",
      summary: "Take a book off the caller's shelves",
      tag: "shelves",
      params: shelfBookParamsSchema,
      before: (deps) => [deps.limits.shelve],
      answer: { status: 204, description: "Taken off." },
      errors: [400, 404, 429],
    },
    async ({ params, caller }, { db }) => {
      await unshelveBook(db, caller, params.bookId);
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/my-books/shelves/:shelf",
      access: "signed-in",
      summary: "A page of one of the caller's shelves, the latest shelved first",
      tag: "shelves",
      params: shelfParamsSchema,
      query: shelfPageQuerySchema,
      answer: { status: 200, description: "The page.", json: answers.shelfPageSchema },
      errors: [400],
    },
    ({ params, query, caller }, { db }) => readShelf(db, caller, params.shelf, query.page),
  ),
  route(
    {
      method: "GET",
      path: "/api/my-books/taken",
      access: "signed-in",
      summary: "A page of the books the caller took (downloaded, read, sent, by an e-reader app), each once, newest first",
      tag: "shelves",
      query: shelfPageQuerySchema,
      answer: { status: 200, description: "The page.", json: answers.takenBooksPageSchema },
      errors: [400],
    },
    ({ query, caller }, { db }) => readTakenBooks(db, caller, query.page),
  ),
  route(
    {
      method: "GET",
      path: "/api/my-books/continue-reading",
      access: "signed-in",
      summary: "Where the caller was in the books they are reading, newest first; one book's place when asked",
      tag: "shelves",
      query: continueReadingQuerySchema,
      answer: { status: 200, description: "The places.", json: answers.continueReadingSchema },
      errors: [400],
    },
    ({ query, caller }, { db }) => readContinueReading(db, caller, query.bookId),
  ),
  route(
    {
      method: "GET",
      path: "/api/readers/:username",
      access: "public",
      summary: "A reader's public shelves: their username and listed books, when they made them public",
      tag: "shelves",
      params: readerParamsSchema,
      answer: { status: 200, description: "The reader's shelves.", json: answers.publicReaderSchema },
      errors: [400, 404],
    },
    ({ params, caller }, { db }) => readPublicReader(db, params.username, caller),
  ),
]);
