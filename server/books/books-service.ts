import { rm } from "node:fs/promises";
import type { BookFields } from "../../shared/book-schemas.ts";
import { type BookFileType, DEFAULT_CONTENT_RATING } from "../../shared/books.ts";
import type { DocxLimits, StorageLimits } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { Book, User } from "../db/schema.ts";
import { HttpError, notFound, unauthorized, validationFailed } from "../http/errors.ts";
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
import { type Viewer, authorizeBookChange, authorizeExplicitTaking, authorizeTaking, canSeeBook, unseenBookError } from "./books-policy.ts";
import { removeBookFiles } from "./book-files.ts";
import { insertEdition, listOlderEditionFiles } from "./editions-repository.ts";
import { removeCover, storeCover } from "./cover-images.ts";
import type { CoverQueue } from "./cover-queue.ts";
import type { EpubQueue } from "./word-epubs.ts";
import { type GeneratedCoverText, coverDrawingsBusy, storeGeneratedCover } from "./covers-service.ts";
import { checkBookFits } from "./storage-quota.ts";
import { BOOK_MIME_TYPES, coverTypeOfExtension, isBookOfType, isCoverOfType } from "./file-types.ts";
import { type ReceivedFile, fileInvalidType, unsafeDocument, unsafeEpub } from "./upload-parser.ts";
import { checkEpub } from "./epub-checks.ts";
import { unsafeWordDocument } from "./word-documents.ts";
import { authorDisplayName } from "./present-book.ts";
import type { GenreKey } from "../../shared/genres.ts";
import { logger } from "../system/logger.ts";
import { type DecisionMailing, mailDecision } from "../moderation/moderation-service.ts";
import { fingerprintFile } from "./book-fingerprints.ts";
import { lockCopyChecks } from "./copies-repository.ts";
import { fingerprintAndCompare, hideAsCopy, refuseExactCopy } from "./copies.ts";
import { partialMd5 } from "./partial-md5.ts";
import { saveBookDocument } from "./book-documents-repository.ts";
import { placeBook, unplaceBook } from "../series/book-placement.ts";

export interface BooksDeps {
  db: Db;
  store: FileStore;
  docxLimits: DocxLimits;
  /** What an account, and all of them, may keep (docs/decisions/0055). */
  storageLimits: StorageLimits;
  /**
   * Draws PDFs' covers and counts their pages after their upload commits, and Word books' covers
   * that could not be drawn with their upload or edit (docs/product.md#covers).
   */
  coverQueue: Pick<CoverQueue, "add">;
  /** Makes Word books' EPUBs once committed, and again when their title, language or cover changes (docs/decisions/0096). */
  epubQueue: Pick<EpubQueue, "add">;
  /** Whether uploads are checked for copies of other accounts' books (docs/decisions/0091). */
  copyChecks: boolean;
  /** How an upload hidden as a near copy tells its author why (docs/decisions/0091), and the origin its notice links to. */
  mailing: DecisionMailing;
}

/** The client's file name, for display only (never part of a path): no folders, no control characters. */
export function displayFileName(name: string): string {
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

/**
 * An EPUB's own cover (its package's cover image), stored as an author's upload is; null when it has
 * none, or none an image decoder takes: the book then gets Plume's typographic cover, as a Word book.
 */
export async function packageCoverOrNone(store: FileStore, cover: Uint8Array | null | undefined): Promise<string | null> {
  if (!cover) return null;
  try {
    return await storeCover(store, cover);
  } catch (error) {
    if (error instanceof HttpError) return null;
    throw error;
  }
}

/** An EPUB judged in its cage (docs/decisions/0095): refused with the reason's code, else its package's cover. */
async function checkedEpub(path: string, limits: DocxLimits): Promise<{ cover: Uint8Array | null }> {
  const verdict = await checkEpub(path, limits);
  if (verdict.unsafe) throw unsafeEpub(verdict.unsafe, verdict.detail, limits);
  return verdict;
}

/**
 * A Word book's typographic cover, or null when it could not be drawn (its drawing process failed or
 * timed out, or too many covers are being drawn to wait for one): the book is published or edited all
 * the same, with the placeholder, and the cover queue draws it once committed. A cover is never worth
 * an author's upload (docs/decisions/0052).
 */
export async function generatedCoverOrNone(store: FileStore, text: GeneratedCoverText): Promise<string | null> {
  if (coverDrawingsBusy()) return null;
  try {
    return await storeGeneratedCover(store, text);
  } catch (error) {
    logger.warn({ component: "covers", error: (error as Error).message }, "a typographic cover could not be drawn; the cover queue draws it again");
    return null;
  }
}

/** Runs the database work for files already kept; if it fails, the files go too: no orphan, no half row. */
export async function withKeptFiles<T>(
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

/** The form's fields the books row holds; its series, volume and tags are set by server/series/series-service.ts#placeBook. */
function bookColumnsOf({ seriesId: _series, seriesVolume: _volume, tags: _tags, ...columns }: BookFields) {
  return columns;
}

/**
 * A book file as an upload or a new edition receives it, judged by content: its type sniffed, a Word
 * document's parts (docs/decisions/0023), an EPUB in its cage (docs/decisions/0095). Answers its type
 * and an EPUB's package cover; throws the 4xx naming what is wrong.
 */
export async function checkBookFile(
  file: ReceivedFile | undefined,
  docxLimits: DocxLimits,
): Promise<{ file: ReceivedFile; fileType: BookFileType; epub: { cover: Uint8Array | null } | null }> {
  if (!file) throw validationFailed("A book file (PDF, DOC, DOCX or EPUB) is required.", { file: "upload.fileRequired" });
  const fileType = file.extension as BookFileType;
  if (file.size === 0 || !(await isBookOfType(file.tempPath, file.size, file.header, fileType))) throw fileInvalidType("file");
  // Word documents are judged by content before readers get them (docs/decisions/0023).
  const unsafe = await unsafeWordDocument(file.tempPath, fileType, docxLimits);
  if (unsafe) throw unsafeDocument(unsafe, docxLimits);
  // So are EPUBs, in a cage: every XML part of the book is parsed (docs/decisions/0095).
  const epub = fileType === "epub" ? await checkedEpub(file.tempPath, docxLimits) : null;
  return { file, fileType, epub };
}

export async function publishBook(
  { db, store, docxLimits, storageLimits, coverQueue, epubQueue, copyChecks, mailing }: BooksDeps,
  author: User,
  fields: BookFields,
  files: { file?: ReceivedFile; coverImage?: ReceivedFile },
): Promise<Book> {
  const { coverImage } = files;
  const { file, fileType, epub } = await checkBookFile(files.file, docxLimits);
  if (coverImage) checkCover(coverImage);
  // Judged once now, before a refused file travels to the bucket, and again under the account's lock.
  await checkBookFits(db, storageLimits, author.id, file.size);
  if (copyChecks) await refuseExactCopy(db, author, file.sha256);
  // Read from the temporary file, before it travels to the bucket (docs/decisions/0091).
  const fingerprint = copyChecks ? await fingerprintFile(file.tempPath, fileType) : undefined;
  // KOReader's id of the file readers will take, for its progress sync (docs/product.md#progress-sync).
  const documentId = await partialMd5(file.tempPath);

  const storedFile = await store.keep(file.tempPath, "books", fileType);
  // Without the author's cover, an EPUB gets its package's; else a Word book or an EPUB gets Plume's
  // typographic one now; a PDF its first page (or, when that page does not work as a cover, the
  // typographic one) once committed.
  const packageCover = coverImage ? null : await withKeptFiles(store, { bookFile: storedFile }, () => packageCoverOrNone(store, epub?.cover));
  const coverUrl =
    packageCover ??
    (await withKeptFiles(store, { bookFile: storedFile }, () =>
      !coverImage && fileType !== "pdf"
        ? generatedCoverOrNone(store, {
            title: fields.title,
            authorName: authorDisplayName({ authorFirstName: author.firstName, authorLastName: author.lastName, authorEmail: author.email }),
            genre: (fields.genre ?? null) as GenreKey | null,
          })
        : keepCover(store, coverImage),
    ));
  const { book, hidden } = await withKeptFiles(store, { bookFile: storedFile, coverUrl }, () =>
    db.transaction(async (tx) => {
      if (!(await lockOpenAccount(tx, author.id))) throw unauthorized("This account has been deleted.");
      await checkBookFits(tx, storageLimits, author.id, file.size);
      // Checked again under the copy checks' lock: two accounts uploading one book at once cannot both pass.
      if (copyChecks) {
        await lockCopyChecks(tx);
        await refuseExactCopy(tx, author, file.sha256);
      }
      // Deleted books count too: deleting and re-uploading never makes a second "first book" (and bonus).
      const firstBook = !(await hasEverPublished(tx, author.id));
      const inserted = await insertBook(tx, {
        ...bookColumnsOf(fields),
        contentRating: fields.contentRating ?? DEFAULT_CONTENT_RATING,
        authorId: author.id,
        fileName: displayFileName(file.originalName),
        filePath: storedFile,
        fileSize: file.size,
        mimeType: BOOK_MIME_TYPES[fileType],
        coverImageUrl: coverUrl,
        // An EPUB's own cover is the author's too: an edit never redraws it.
        coverSource: coverImage || packageCover ? "author" : coverUrl ? "generated" : null,
        fileSha256: file.sha256,
        firstBook,
      });
      // Its first edition (docs/product.md#editions): the file it has now.
      await insertEdition(tx, {
        bookId: inserted.id,
        number: 1,
        fileName: inserted.fileName,
        filePath: inserted.filePath,
        fileSize: inserted.fileSize,
        fileSha256: inserted.fileSha256,
        mimeType: inserted.mimeType,
        createdAt: inserted.createdAt,
      });
      await saveBookDocument(tx, inserted.id, "file", 1, documentId);
      // Its series, volume and tags (docs/product.md#series-and-tags): a refusal there refuses the upload whole.
      await placeBook(tx, author, inserted, fields);
      // Without the checks, no fingerprint is kept: `npm run fingerprints:fill` takes the book up if they are turned on.
      const copy = fingerprint === undefined ? null : await fingerprintAndCompare(tx, inserted, fingerprint);
      if (!copy) return { book: inserted, hidden: null };
      const decision = await hideAsCopy(tx, { book: inserted, author, copy, origin: mailing.origin, at: new Date() });
      return { book: { ...inserted, moderationState: "hidden" as const, moderationDecisionId: decision.id }, hidden: decision };
    }),
  );
  if (fileType === "pdf" || coverUrl === null) coverQueue.add(book.id);
  // Queued after the cover, so that a cover drawn later is in it when its turn comes, most times.
  if (fileType !== "pdf") epubQueue.add(book.id);
  // Its author is told why at once, by mail and on the dashboard (docs/product.md#moderation).
  if (hidden) await mailDecision(db, mailing, hidden);
  return book;
}

export async function lockOwnedBook(tx: Queryable, bookId: number, user: User): Promise<Book> {
  const book = await lockLiveBook(tx, bookId);
  if (!book) throw notFound("This book does not exist.");
  authorizeBookChange(user, book);
  return book;
}

export async function editBook(
  { db, store, coverQueue, epubQueue }: BooksDeps,
  user: User,
  bookId: number,
  fields: BookFields,
  coverImage: ReceivedFile | undefined,
): Promise<void> {
  if (coverImage) checkCover(coverImage);
  const redraw = coverImage ? null : await redrawnCover(db, store, bookId, user, fields);
  const coverUrl = (await keepCover(store, coverImage)) ?? redraw?.coverUrl ?? null;
  const { replacedCoverUrl, redrawLater } = await withKeptFiles(store, { coverUrl }, () =>
    db.transaction(async (tx) => {
      const book = await lockOwnedBook(tx, bookId, user);
      await placeBook(tx, user, book, fields);
      // A cover redrawn from what the book was a moment ago is kept only if that cover is still the book's.
      if (redraw && book.coverSource !== "generated") {
        await updateBook(tx, bookId, bookColumnsOf(fields));
        return { replacedCoverUrl: coverUrl, redrawLater: false };
      }
      // Not redrawn: the old title's cover goes, the placeholder shows until the queue draws the new one.
      if (redraw && !coverUrl) {
        await updateBook(tx, bookId, { ...bookColumnsOf(fields), coverImageUrl: null, coverSource: null });
        return { replacedCoverUrl: book.coverImageUrl, redrawLater: true };
      }
      const coverSource = coverImage ? ("author" as const) : ("generated" as const);
      await updateBook(tx, bookId, { ...bookColumnsOf(fields), ...(coverUrl ? { coverImageUrl: coverUrl, coverSource } : {}) });
      return { replacedCoverUrl: coverUrl ? book.coverImageUrl : null, redrawLater: false };
    }),
  );
  await removeCover(store, replacedCoverUrl);
  if (redrawLater) coverQueue.add(bookId);
  // A new title, language or cover goes into a Word book's EPUB; the queue passes over a book whose EPUB still matches it.
  else epubQueue.add(bookId);
}

/**
 * A new typographic cover when an edit changes what a book's typographic cover shows (its title or
 * genre's colour), its URL null if it could not be drawn; null when the book keeps its cover (the
 * author's, a PDF's first page, or unchanged). Drawn before the edit's transaction, which decides
 * whether it is kept.
 */
async function redrawnCover(db: Db, store: FileStore, bookId: number, user: User, fields: BookFields): Promise<{ coverUrl: string | null } | null> {
  const book = await findLiveBook(db, bookId);
  if (!book) throw notFound("This book does not exist.");
  authorizeBookChange(user, book);
  const genre = (fields.genre ?? null) as GenreKey | null;
  if (book.coverSource !== "generated") return null;
  if (book.title === fields.title && book.genre === genre) return null;
  return { coverUrl: await generatedCoverOrNone(store, { title: fields.title, authorName: authorDisplayName(book), genre }) };
}

/** Soft delete (docs/product.md#books): gone from the catalog and its files removed; downloads, reviews, payments kept. */
export async function deleteBook({ db, store }: BooksDeps, user: User, bookId: number): Promise<void> {
  const { book, olderEditions } = await db.transaction(async (tx) => {
    const owned = await lockOwnedBook(tx, bookId, user);
    await updateBook(tx, bookId, { deletedAt: new Date() });
    await unplaceBook(tx, bookId);
    return { book: owned, olderEditions: await listOlderEditionFiles(tx, [bookId]) };
  });
  await removeBookFiles(store, book, olderEditions.map((edition) => edition.filePath));
}

/** A live book the viewer may see (books-policy.ts#canSeeBook); for anyone else a 404, or the 410 or 451 of a removed book. */
export async function findVisibleBook(db: Queryable, id: number, viewer: Viewer): Promise<BookWithAuthor> {
  const book = await findLiveBook(db, id);
  if (!book || !canSeeBook(book, viewer)) throw unseenBookError(book);
  return book;
}

/** A book the viewer may take (download, read, send to an e-reader): visible to them, and not restricted unless they are the admin. */
export async function findTakeableBook(db: Queryable, id: number, viewer: Viewer): Promise<BookWithAuthor> {
  const book = await findVisibleBook(db, id, viewer);
  authorizeTaking(book, viewer);
  authorizeExplicitTaking(book, viewer);
  return book;
}

/**
 * A book as a visitor sees it (docs/product.md#book-pages): published, not deleted and not restricted,
 * with its author; else the error its page answers with (404, or a removed book's 410 or 451).
 */
export async function findPublicBook(db: Queryable, id: number): Promise<{ book: BookWithAuthor } | { unseen: HttpError }> {
  const book = await findLiveBook(db, id);
  return book && canSeeBook(book, undefined) ? { book } : { unseen: unseenBookError(book) };
}

/** An author's books as anyone sees them (the author page): listed, explicit ones only for a reader who chose to see them, newest first. */
export async function listPublicBooksOfAuthor(db: Queryable, authorId: string, showExplicit: boolean): Promise<BookWithAuthor[]> {
  return listListedAuthorBooks(db, authorId, showExplicit);
}

/** An author's live books, newest first, as the dashboard lists them. */
export async function listBooksOfAuthor(db: Queryable, authorId: string): Promise<BookWithAuthor[]> {
  return listAuthorBooks(db, authorId);
}
