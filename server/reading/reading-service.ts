import { type OpenedBook, type ReaderFormat, type ReadingPosition, type SavedPosition, pageAtPercentage } from "../../shared/reading.ts";
import { type BookFormat, EPUB_MIME_TYPE, derivedNamesOf, formatsOf } from "../books/book-files.ts";
import { findTakeableBook } from "../books/books-service.ts";
import type { BookWithAuthor } from "../books/books-repository.ts";
import type { RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { AddressHasher } from "../downloads/address-hashes.ts";
import { hasDownloadedBefore } from "../downloads/downloads-repository.ts";
import { recordDownload } from "../downloads/downloads-service.ts";
import { notFound } from "../http/errors.ts";
import { hasOpenNotices } from "../moderation/notices-repository.ts";
import type { FileStore } from "../storage/file-store.ts";
import { shelveOnOpening } from "../shelves/shelves-repository.ts";
import { canSeeBook } from "../books/books-policy.ts";
import { findReadingPosition, saveReadingPosition } from "./reading-positions-repository.ts";
import { authorizeReading, checkPageInBook, readerFormatOf, requireFormat } from "./reading-policy.ts";
import type { WordViews } from "./word-views.ts";

export interface ReadingDeps {
  db: Db;
  store: FileStore;
  countedPerIpPerBookPerDay: number;
  hashAddress: AddressHasher;
  rewards: RewardSettings;
  wordViews: WordViews;
}

/** A reader, signed in (the routes' access lets no one else through). */
export type ReaderViewer = Express.User;

/**
 * Opens a book to read: it is taken like a download, by the same counting rule (docs/product.md#reading,
 * #counting-downloads), unless this reader has already taken it: coming back to a book over many
 * visits is reading, not a new taking, and is neither counted nor logged again.
 */
export async function openBookToRead(
  deps: ReadingDeps,
  { bookId, viewer, ipAddress, at }: { bookId: number; viewer: ReaderViewer; ipAddress: string | undefined; at: Date },
): Promise<{ opened: OpenedBook; paymentsOwed: number }> {
  const { db } = deps;
  const book = await findTakeableBook(db, bookId, viewer);
  // An opening that cannot be read must not count, as for a download.
  if (!(await deps.store.has("books", book.filePath))) throw notFound("The file of this book is missing.");
  const readerId = viewer.id;
  let paymentsOwed = 0;
  if (!(await hasDownloadedBefore(db, book.id, readerId))) {
    ({ paymentsOwed } = await recordDownload(db, {
      bookId: book.id,
      readerId,
      ipAddress,
      at,
      channel: "read",
      countedPerIpPerBookPerDay: deps.countedPerIpPerBookPerDay,
      hashAddress: deps.hashAddress,
      rewards: deps.rewards,
      // The admin opens a reported book from the moderation queue to review it (docs/product.md#moderation).
      reviewing: viewer.isAdmin && (await hasOpenNotices(db, book.id)),
    }));
  }
  // The book moves to Reading, from no shelf or Want to read; never back from Read, and not an author's
  // own book nor one moderation restricts, which the admin opens to review (docs/decisions/0102).
  if (book.authorId !== readerId && canSeeBook(book, undefined)) await shelveOnOpening(db, readerId, book.id, at);
  const format = readerFormatOf(book);
  // A Word book uploaded before views were made after the upload (or whose view failed to start) starts now.
  if (format === "word" && book.pageCount === null) deps.wordViews.prepare(book);
  return {
    opened: {
      id: book.id,
      title: book.title,
      format,
      // A Word book's count is its reading view's sections: its EPUB's spine is another count, which the reader reads from the file.
      pageCount: format === "epub" ? null : book.pageCount,
      position: presentPosition(await findReadingPosition(db, readerId, book.id), book, format),
    },
    paymentsOwed,
  };
}

/**
 * A place as the browser reader takes it: an e-reader's own locator (a KOReader XPointer) is in terms the
 * browser cannot follow. A place saved in an older edition of the book's file (docs/product.md#editions)
 * keeps only how far through it was: the new file opens at the same percentage.
 */
function presentPosition(
  saved: (SavedPosition & { edition: number | null }) | null,
  book: Pick<BookWithAuthor, "edition" | "pageCount">,
  format: ReaderFormat,
): SavedPosition | null {
  if (!saved) return null;
  const { page, percentage, locator, device } = saved;
  if ((saved.edition ?? 1) !== book.edition) {
    const pageCount = format === "epub" ? null : book.pageCount;
    const newPage = percentage !== null && pageCount !== null ? pageAtPercentage(percentage, pageCount) : 1;
    return { page: newPage, percentage, locator: null, format: null, device, earlierEdition: true };
  }
  return { page, percentage, locator: device === null ? locator : null, format: saved.format, device };
}

/** The book behind a reader's call for its content: visible to them, of that format, and taken by them. */
export async function findReadableBook(db: Db, bookId: number, viewer: ReaderViewer, format: ReaderFormat): Promise<BookWithAuthor> {
  const book = await findTakeableBook(db, bookId, viewer);
  requireFormat(book, format);
  authorizeReading(await hasDownloadedBefore(db, book.id, viewer.id));
  return book;
}

/** The stored name of a Word book's reading view (gzipped JSON), made first if need be (docs/decisions/0051). */
export async function readyWordView(deps: ReadingDeps, bookId: number, viewer: ReaderViewer): Promise<string> {
  const book = await findReadableBook(deps.db, bookId, viewer, "word");
  await deps.wordViews.pageCountOf(book);
  return derivedNamesOf(book.filePath).view;
}

/** The EPUB a reader reads of a book: its own file if it is one, else the EPUB Plume made from it (docs/product.md#epub). */
export async function findReadableEpub(db: Db, bookId: number, viewer: ReaderViewer): Promise<BookFormat> {
  const book = await findReadableBook(db, bookId, viewer, "epub");
  // The format's rule (readerFormatOf) already holds that one of the two exists.
  return formatsOf(book).find(({ mimeType }) => mimeType === EPUB_MIME_TYPE)!;
}

/** Remembers the reader's page; a page past the book's last one is refused (docs/product.md#reading). */
export async function saveReaderPosition(
  deps: ReadingDeps,
  { bookId, viewer, position, at }: { bookId: number; viewer: ReaderViewer; position: ReadingPosition; at: Date },
): Promise<void> {
  const { db } = deps;
  const book = await findTakeableBook(db, bookId, viewer);
  authorizeReading(await hasDownloadedBefore(db, book.id, viewer.id));
  // An EPUB's page is a spine item, which the server does not count without parsing the book.
  if (position.format !== "epub") checkPageInBook(position.page, await pageCountOf(deps, book));
  // Which edition's page it is: a newer edition opens it at its percentage (docs/product.md#editions).
  await saveReadingPosition(db, viewer.id, book.id, { ...position, edition: book.edition }, at);
}

/**
 * A PDF's count is read after its upload (null until then); a Word book's is its view's, made if not yet.
 * An EPUB's spine items are not counted: that would mean unzipping it on the request's path, so its page
 * (the spine item) is held to the reader's bound only.
 */
async function pageCountOf(deps: ReadingDeps, book: BookWithAuthor): Promise<number | null> {
  const format = readerFormatOf(book);
  if (format === "epub") return null;
  if (format === "pdf" || book.pageCount !== null) return book.pageCount;
  return deps.wordViews.pageCountOf(book);
}
