import { rm } from "node:fs/promises";
import type { BookFields } from "../../shared/book-schemas.ts";
import type { BookFileType } from "../../shared/books.ts";
import type { DocxLimits } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { Book, User } from "../db/schema.ts";
import { notFound, unauthorized, validationFailed } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { lockOpenAccount } from "../accounts/users-repository.ts";
import {
  type BookWithAuthor,
  findLiveBook,
  hasEverPublished,
  insertBook,
  listAuthorBooks,
  listListedAuthorBooks,
  lockLiveBook,
  updateBook,
} from "./books-repository.ts";
import { authorizeBookChange, canSeeBook } from "./books-policy.ts";
import { removeBookFiles } from "./book-files.ts";
import { removeCover, storeCover } from "./cover-images.ts";
import type { CoverQueue } from "./cover-queue.ts";
import { storeGeneratedCover } from "./covers-service.ts";
import { BOOK_MIME_TYPES, coverTypeOfExtension, isBookOfType, isCoverOfType } from "./file-types.ts";
import { type ReceivedFile, fileInvalidType, unsafeDocument } from "./upload-parser.ts";
import { unsafeWordDocument } from "./word-documents.ts";
import { authorDisplayName } from "./present-book.ts";
import type { GenreKey } from "../../shared/genres.ts";

export interface BooksDeps {
  db: Db;
  store: FileStore;
  docxLimits: DocxLimits;
  /** Draws PDFs' first pages and counts their pages after their upload commits (docs/product.md#covers). */
  coverQueue: Pick<CoverQueue, "add">;
}

/** The client's file name, for display only (never part of a path): no folders, no control characters. */
function displayFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  return base.replace(/\p{Cc}/gu, "").slice(-255) || "book";
}

function checkCover(cover: ReceivedFile): void {
  const type = coverTypeOfExtension(cover.extension);
  if (!type || !isCoverOfType(cover.header, type)) throw fileInvalidType("coverImage");
}

/**
 * Stores a checked cover's images and drops the upload, as keeping a book file moves it: the response
 * then leaves no temporary file behind. The caller removes the images if the row is not written.
 */
async function keepCover(store: FileStore, cover: ReceivedFile | undefined): Promise<string | null> {
  if (!cover) return null;
  const coverUrl = await storeCover(store, cover.tempPath);
  await rm(cover.tempPath, { force: true });
  return coverUrl;
}

/** Runs the database work for files already kept; if it fails, the files go too: no orphan, no half row. */
async function withKeptFiles<T>(
  store: FileStore,
  kept: { bookFile?: string; coverUrl?: string | null },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await Promise.all([store.remove("books", kept.bookFile), removeCover(store, kept.coverUrl ?? null)]);
    throw error;
  }
}

export async function publishBook(
  { db, store, docxLimits, coverQueue }: BooksDeps,
  author: User,
  fields: BookFields,
  files: { file?: ReceivedFile; coverImage?: ReceivedFile },
): Promise<Book> {
  const { file, coverImage } = files;
  if (!file) throw validationFailed("A book file (PDF, DOC or DOCX) is required.", { file: "upload.fileRequired" });
  const fileType = file.extension as BookFileType;
  if (file.size === 0 || !(await isBookOfType(file.tempPath, file.size, file.header, fileType))) throw fileInvalidType("file");
  // Word documents are judged by content before readers get them (docs/decisions/0023).
  const unsafe = await unsafeWordDocument(file.tempPath, fileType, docxLimits);
  if (unsafe) throw unsafeDocument(unsafe, docxLimits);
  if (coverImage) checkCover(coverImage);

  const storedFile = await store.keep(file.tempPath, "books", fileType);
  // Without the author's cover, a Word book gets Plume's typographic one now; a PDF its first page, once committed.
  const generated = !coverImage && fileType !== "pdf";
  const coverUrl = await withKeptFiles(store, { bookFile: storedFile }, () =>
    generated
      ? storeGeneratedCover(store, {
          title: fields.title,
          authorName: authorDisplayName({ authorFirstName: author.firstName, authorLastName: author.lastName, authorEmail: author.email }),
          genre: (fields.genre ?? null) as GenreKey | null,
        })
      : keepCover(store, coverImage),
  );
  const book = await withKeptFiles(store, { bookFile: storedFile, coverUrl }, () =>
    db.transaction(async (tx) => {
      if (!(await lockOpenAccount(tx, author.id))) throw unauthorized("This account has been deleted.");
      // Deleted books count too: deleting and re-uploading never makes a second "first book" (and bonus).
      const firstBook = !(await hasEverPublished(tx, author.id));
      return insertBook(tx, {
        ...fields,
        authorId: author.id,
        fileName: displayFileName(file.originalName),
        filePath: storedFile,
        fileSize: file.size,
        mimeType: BOOK_MIME_TYPES[fileType],
        coverImageUrl: coverUrl,
        coverSource: coverImage ? "author" : generated ? "generated" : null,
        firstBook,
      });
    }),
  );
  if (fileType === "pdf") coverQueue.add(book.id);
  return book;
}

async function lockOwnedBook(tx: Queryable, bookId: number, user: User): Promise<Book> {
  const book = await lockLiveBook(tx, bookId);
  if (!book) throw notFound("This book does not exist.");
  authorizeBookChange(user, book);
  return book;
}

export async function editBook(
  { db, store }: BooksDeps,
  user: User,
  bookId: number,
  fields: BookFields,
  coverImage: ReceivedFile | undefined,
): Promise<void> {
  if (coverImage) checkCover(coverImage);
  const coverUrl = (await keepCover(store, coverImage)) ?? (await redrawnCover(db, store, bookId, user, fields));
  const replacedCoverUrl = await withKeptFiles(store, { coverUrl }, () =>
    db.transaction(async (tx) => {
      const book = await lockOwnedBook(tx, bookId, user);
      // A cover redrawn from what the book was a moment ago is kept only if that cover is still the book's.
      const redrawn = coverUrl !== null && !coverImage;
      if (redrawn && book.coverSource !== "generated") {
        await updateBook(tx, bookId, fields);
        return coverUrl;
      }
      const coverSource = coverImage ? ("author" as const) : ("generated" as const);
      await updateBook(tx, bookId, { ...fields, ...(coverUrl ? { coverImageUrl: coverUrl, coverSource } : {}) });
      return coverUrl ? book.coverImageUrl : null;
    }),
  );
  await removeCover(store, replacedCoverUrl);
}

/**
 * A new typographic cover when an edit changes what a Word book's generated cover shows (its title or
 * genre's colour); null when the book keeps its cover (the author's, a PDF's first page, or unchanged).
 * Drawn before the edit's transaction, which decides whether it is kept.
 */
async function redrawnCover(db: Db, store: FileStore, bookId: number, user: User, fields: BookFields): Promise<string | null> {
  const book = await findLiveBook(db, bookId);
  if (!book) throw notFound("This book does not exist.");
  authorizeBookChange(user, book);
  const genre = (fields.genre ?? null) as GenreKey | null;
  if (book.coverSource !== "generated" || book.mimeType === BOOK_MIME_TYPES.pdf) return null;
  if (book.title === fields.title && book.genre === genre) return null;
  return storeGeneratedCover(store, { title: fields.title, authorName: authorDisplayName(book), genre });
}

/** Soft delete (docs/product.md#books): gone from the catalog and its files removed; downloads, reviews, payments kept. */
export async function deleteBook({ db, store }: BooksDeps, user: User, bookId: number): Promise<void> {
  const book = await db.transaction(async (tx) => {
    const owned = await lockOwnedBook(tx, bookId, user);
    await updateBook(tx, bookId, { deletedAt: new Date() });
    return owned;
  });
  await removeBookFiles(store, book);
}

/** A book as a visitor sees it (docs/product.md#book-pages): published and not deleted, with its author; else undefined. */
export async function findPublicBook(db: Queryable, id: number): Promise<BookWithAuthor | undefined> {
  const book = await findLiveBook(db, id);
  return book && canSeeBook(book, { user: undefined, adminEmail: undefined }) ? book : undefined;
}

/** An author's books as a visitor sees them (the author page): published and not deleted, newest first. */
export async function listPublicBooksOfAuthor(db: Queryable, authorId: string): Promise<BookWithAuthor[]> {
  return listListedAuthorBooks(db, authorId);
}

/** An author's live books, newest first, as the dashboard lists them. */
export async function listBooksOfAuthor(db: Queryable, authorId: string): Promise<BookWithAuthor[]> {
  return listAuthorBooks(db, authorId);
}
