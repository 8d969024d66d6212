import type {
  BookPage,
  ContinueReading,
  PublicReader,
  Shelf,
  ShelfEntry,
  ShelfMap,
  ShelvedBook,
  TakenBook,
} from "../../shared/shelves.ts";
import { CONTINUE_READING_LIMIT, PUBLIC_SHELF_LIMIT, SHELF_PAGE_SIZE } from "../../shared/shelves.ts";
import { type Viewer, showsExplicit } from "../books/books-policy.ts";
import { findLiveBook } from "../books/books-repository.ts";
import { presentBook } from "../books/present-book.ts";
import type { Queryable } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { authorizePublicShelves, authorizeShelving } from "./shelves-policy.ts";
import {
  deleteShelfEntry,
  findReaderByUsername,
  listContinueReading,
  listPublicShelves,
  listShelf,
  listShelfMap,
  listTakenBooks,
  upsertShelfEntry,
} from "./shelves-repository.ts";

/** Puts a book on one of the reader's shelves, off any other (docs/product.md#shelves). */
export async function shelveBook(db: Queryable, caller: Express.User, bookId: number, shelf: Shelf, at: Date): Promise<ShelfEntry> {
  const book = await findLiveBook(db, bookId);
  authorizeShelving(book, caller);
  await upsertShelfEntry(db, caller.id, book.id, shelf, at);
  return { bookId: book.id, shelf };
}

/** Takes a book off the reader's shelves; 404 when it was on none. Any book, even one no longer listed. */
export async function unshelveBook(db: Queryable, caller: Express.User, bookId: number): Promise<void> {
  if (!(await deleteShelfEntry(db, caller.id, bookId))) throw notFound("This book is on none of your shelves.");
}

export async function readShelfMap(db: Queryable, caller: Express.User): Promise<ShelfMap> {
  const rows = await listShelfMap(db, caller.id);
  return { shelves: Object.fromEntries(rows.map(({ bookId, shelf }) => [String(bookId), shelf])) };
}

const pageOf = (page: number) => ({ limit: SHELF_PAGE_SIZE, offset: (page - 1) * SHELF_PAGE_SIZE });

export async function readShelf(db: Queryable, caller: Express.User, shelf: Shelf, page: number): Promise<BookPage<ShelvedBook>> {
  const { rows, total } = await listShelf(db, { userId: caller.id, shelf, showExplicit: showsExplicit(caller), ...pageOf(page) });
  return {
    items: rows.map((row) => ({ book: presentBook(row.book), shelf, shelvedAt: row.shelvedAt.toISOString() })),
    total,
    page,
    pageSize: SHELF_PAGE_SIZE,
  };
}

/** "My books": what the reader took, each book once, with every way they took it. */
export async function readTakenBooks(db: Queryable, caller: Express.User, page: number): Promise<BookPage<TakenBook>> {
  const { rows, total } = await listTakenBooks(db, { userId: caller.id, showExplicit: showsExplicit(caller), ...pageOf(page) });
  return {
    items: rows.map((row) => ({ book: presentBook(row.book), channels: row.channels, lastTakenAt: row.lastTakenAt.toISOString() })),
    total,
    page,
    pageSize: SHELF_PAGE_SIZE,
  };
}

/** The places to go back to, newest first; one book's when asked (its page). */
export async function readContinueReading(db: Queryable, caller: Express.User, bookId: number | undefined): Promise<ContinueReading> {
  const rows = await listContinueReading(db, {
    userId: caller.id,
    showExplicit: showsExplicit(caller),
    limit: bookId === undefined ? CONTINUE_READING_LIMIT : 1,
    bookId,
  });
  return {
    items: rows.map((row) => ({
      book: presentBook(row.book),
      page: row.page,
      percentage: row.percentage,
      format: row.format,
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

/**
 * A reader's public shelves: their username and the listed books of each shelf, explicit ones only
 * for a viewer who chose to see them; nothing else of the account (docs/product.md#shelves).
 */
export async function readPublicReader(db: Queryable, username: string, viewer: Viewer): Promise<PublicReader> {
  const reader = await findReaderByUsername(db, username);
  authorizePublicShelves(reader);
  const shelves = await listPublicShelves(db, { userId: reader!.id, showExplicit: showsExplicit(viewer), limit: PUBLIC_SHELF_LIMIT });
  return {
    username: reader!.username,
    shelves: {
      want: { books: shelves.want.rows.map(presentBook), total: shelves.want.total },
      reading: { books: shelves.reading.rows.map(presentBook), total: shelves.reading.total },
      read: { books: shelves.read.rows.map(presentBook), total: shelves.read.total },
    },
  };
}
