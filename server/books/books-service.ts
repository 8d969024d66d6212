import { eq } from "drizzle-orm";
import type { BookFields, BookFileType } from "../../shared/books.ts";
import type { Db, Queryable } from "../db/client.ts";
import { type Book, type User, books, users } from "../db/schema.ts";
import { forbidden, notFound, validationFailed } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { insertBook, lockLiveBook, updateBook } from "./books-repository.ts";
import { BOOK_MIME_TYPES, coverTypeOfExtension, isBookOfType, isCoverOfType } from "./file-types.ts";
import { type ReceivedFile, fileInvalidType } from "./upload-parser.ts";

export interface BooksDeps {
  db: Db;
  store: FileStore;
}

const COVERS_URL_PREFIX = "/covers/";
const coverUrlOf = (name: string) => `${COVERS_URL_PREFIX}${name}`;
const coverNameOf = (url: string | null) => (url?.startsWith(COVERS_URL_PREFIX) ? url.slice(COVERS_URL_PREFIX.length) : null);

/** The client's file name, for display only (never part of a path): no folders, no control characters. */
function displayFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  return base.replace(/\p{Cc}/gu, "").slice(-255) || "book";
}

async function checkedCover(cover: ReceivedFile): Promise<string> {
  const type = coverTypeOfExtension(cover.extension);
  if (!type || !isCoverOfType(cover.header, type)) throw fileInvalidType("coverImage");
  return cover.extension === "jpeg" ? "jpg" : cover.extension;
}

/** Keeps a checked cover under its final name; the caller removes it if the row is not written. */
async function keepCover(store: FileStore, cover: ReceivedFile | undefined): Promise<string | null> {
  return cover ? store.keep(cover.tempPath, "covers", await checkedCover(cover)) : null;
}

/** Runs the database work for files already kept; if it fails, the files go too: no orphan, no half row. */
async function withKeptFiles<T>(store: FileStore, kept: Array<[kind: "books" | "covers", name: string | null]>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await Promise.all(kept.map(([kind, name]) => store.remove(kind, name)));
    throw error;
  }
}

/** Serialises one author's uploads, so "first book" is decided once even when two arrive together. */
async function lockAuthor(tx: Queryable, authorId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, authorId)).for("update");
}

async function hasEverPublished(tx: Queryable, authorId: string): Promise<boolean> {
  const [row] = await tx.select({ id: books.id }).from(books).where(eq(books.authorId, authorId)).limit(1);
  return Boolean(row);
}

export async function publishBook(
  { db, store }: BooksDeps,
  author: User,
  fields: BookFields,
  files: { file?: ReceivedFile; coverImage?: ReceivedFile },
): Promise<Book> {
  const { file, coverImage } = files;
  if (!file) throw validationFailed("A book file (PDF, DOC or DOCX) is required.", { file: "upload.fileRequired" });
  const fileType = file.extension as BookFileType;
  if (file.size === 0 || !(await isBookOfType(file.tempPath, file.size, file.header, fileType))) throw fileInvalidType("file");
  if (coverImage) await checkedCover(coverImage);

  const storedFile = await store.keep(file.tempPath, "books", fileType);
  const storedCover = await withKeptFiles(store, [["books", storedFile]], () => keepCover(store, coverImage));
  return withKeptFiles(store, [["books", storedFile], ["covers", storedCover]], () =>
    db.transaction(async (tx) => {
      await lockAuthor(tx, author.id);
      // Deleted books count too: deleting and re-uploading never makes a second "first book" (and bonus).
      const firstBook = !(await hasEverPublished(tx, author.id));
      return insertBook(tx, {
        ...fields,
        authorId: author.id,
        fileName: displayFileName(file.originalName),
        filePath: storedFile,
        fileSize: file.size,
        mimeType: BOOK_MIME_TYPES[fileType],
        coverImageUrl: storedCover ? coverUrlOf(storedCover) : null,
        firstBook,
      });
    }),
  );
}

async function lockOwnedBook(tx: Queryable, bookId: number, user: User): Promise<Book> {
  const book = await lockLiveBook(tx, bookId);
  if (!book) throw notFound("This book does not exist.");
  if (book.authorId !== user.id) throw forbidden("Only the author can change this book.");
  return book;
}

export async function editBook(
  { db, store }: BooksDeps,
  user: User,
  bookId: number,
  fields: BookFields,
  coverImage: ReceivedFile | undefined,
): Promise<void> {
  if (coverImage) await checkedCover(coverImage);
  const storedCover = await keepCover(store, coverImage);
  const replacedCover = await withKeptFiles(store, [["covers", storedCover]], () =>
    db.transaction(async (tx) => {
      const book = await lockOwnedBook(tx, bookId, user);
      await updateBook(tx, bookId, { ...fields, ...(storedCover ? { coverImageUrl: coverUrlOf(storedCover) } : {}) });
      return storedCover ? coverNameOf(book.coverImageUrl) : null;
    }),
  );
  await store.remove("covers", replacedCover);
}

/** Soft delete (DECISIONS §2.12): gone from the catalog and its files removed; downloads, reviews, payments kept. */
export async function deleteBook({ db, store }: BooksDeps, user: User, bookId: number): Promise<void> {
  const book = await db.transaction(async (tx) => {
    const owned = await lockOwnedBook(tx, bookId, user);
    await updateBook(tx, bookId, { deletedAt: new Date() });
    return owned;
  });
  await Promise.all([store.remove("books", book.filePath), store.remove("covers", coverNameOf(book.coverImageUrl))]);
}
