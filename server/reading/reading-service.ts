import type { OpenedBook, ReaderFormat, WordView } from "../../shared/reading.ts";
import { type Viewer, findVisibleBook } from "../books/books-policy.ts";
import type { BookWithAuthor } from "../books/books-repository.ts";
import { extensionOf } from "../books/file-types.ts";
import type { RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { AddressHasher } from "../downloads/address-hashes.ts";
import { hasDownloadedBefore } from "../downloads/downloads-repository.ts";
import { recordDownload } from "../downloads/downloads-service.ts";
import { notFound } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { findReadingPosition, saveReadingPosition } from "./reading-positions-repository.ts";
import { authorizeReading, checkPageInBook, readerFormatOf, requireFormat } from "./reading-policy.ts";

export interface ReadingDeps {
  db: Db;
  store: FileStore;
  adminEmail: string | undefined;
  countedPerIpPerBookPerDay: number;
  hashAddress: AddressHasher;
  rewards: RewardSettings;
  wordPageCounts: WordPageCounts;
}

/** A reader, signed in (the route table lets no one else through). */
export type ReaderViewer = Viewer & { user: NonNullable<Viewer["user"]> };

/**
 * How many pages each Word book's reading view has, kept by stored file so that saving a position
 * does not convert the book again. A book's file never changes once uploaded (docs/product.md#books)
 * and a new file is a new name, so an entry cannot go stale; the oldest go first past the bound.
 */
export class WordPageCounts {
  private readonly counts = new Map<string, number>();
  constructor(private readonly bound = 2000) {}

  get(filePath: string): number | undefined {
    return this.counts.get(filePath);
  }

  set(filePath: string, pages: number): void {
    this.counts.delete(filePath);
    this.counts.set(filePath, pages);
    if (this.counts.size > this.bound) this.counts.delete(this.counts.keys().next().value!);
  }
}

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
  const book = await findVisibleBook(db, bookId, viewer);
  // An opening that cannot be read must not count, as for a download.
  if (!(await deps.store.has("books", book.filePath))) throw notFound("The file of this book is missing.");
  const readerId = viewer.user.id;
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
    }));
  }
  const format = readerFormatOf(book);
  return {
    opened: {
      id: book.id,
      title: book.title,
      format,
      pageCount: format === "pdf" ? book.pageCount : (deps.wordPageCounts.get(book.filePath) ?? null),
      page: await findReadingPosition(db, readerId, book.id),
    },
    paymentsOwed,
  };
}

/** The book behind a reader's call for its content: visible to them, of that format, and taken by them. */
export async function findReadableBook(db: Db, bookId: number, viewer: ReaderViewer, format: ReaderFormat): Promise<BookWithAuthor> {
  const book = await findVisibleBook(db, bookId, viewer);
  requireFormat(book, format);
  authorizeReading(await hasDownloadedBefore(db, book.id, viewer.user.id));
  return book;
}

export async function readWordView(deps: ReadingDeps, bookId: number, viewer: ReaderViewer): Promise<WordView> {
  const book = await findReadableBook(deps.db, bookId, viewer, "word");
  return convert(deps, book);
}

async function convert(deps: ReadingDeps, book: BookWithAuthor): Promise<WordView> {
  if (!(await deps.store.has("books", book.filePath))) throw notFound("The file of this book is missing.");
  // Loaded with the first Word book read: its converters and sanitizer weigh 25 MB resident (docs/decisions/0045).
  const { wordView } = await import("./word-view.ts");
  const view = await deps.store.withLocalFile("books", book.filePath, (path) => wordView(path, extensionOf(book.filePath) === "docx" ? "docx" : "doc"));
  deps.wordPageCounts.set(book.filePath, view.pages.length);
  return view;
}

/** Remembers the reader's page; a page past the book's last one is refused (docs/product.md#reading). */
export async function saveReaderPosition(
  deps: ReadingDeps,
  { bookId, viewer, page, at }: { bookId: number; viewer: ReaderViewer; page: number; at: Date },
): Promise<void> {
  const { db } = deps;
  const book = await findVisibleBook(db, bookId, viewer);
  authorizeReading(await hasDownloadedBefore(db, book.id, viewer.user.id));
  checkPageInBook(page, await pageCountOf(deps, book));
  await saveReadingPosition(db, viewer.user.id, book.id, page, at);
}

/** A PDF's count is read at upload (null until then); a Word book's is its view's, converted if not known. */
async function pageCountOf(deps: ReadingDeps, book: BookWithAuthor): Promise<number | null> {
  if (readerFormatOf(book) === "pdf") return book.pageCount;
  return deps.wordPageCounts.get(book.filePath) ?? (await convert(deps, book)).pages.length;
}
