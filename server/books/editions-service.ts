import type { BookFileType } from "../../shared/books.ts";
import type { BookEditions, EditionFields } from "../../shared/editions.ts";
import type { GenreKey } from "../../shared/genres.ts";
import { lockOpenAccount } from "../accounts/users-repository.ts";
import type { Queryable } from "../db/client.ts";
import type { Book, User } from "../db/schema.ts";
import { takenEditionsOf } from "../downloads/downloads-repository.ts";
import { findReadingPosition } from "../reading/reading-positions-repository.ts";
import { conflict, notFound, unauthorized } from "../http/errors.ts";
import { mailDecision } from "../moderation/moderation-service.ts";
import { keepPlacesAsPercentages } from "../reading/reading-positions-repository.ts";
import type { Viewer } from "./books-policy.ts";
import { authorizeBookChange } from "./books-policy.ts";
import { findLiveBook, updateBook } from "./books-repository.ts";
import {
  type BooksDeps,
  checkBookFile,
  displayFileName,
  findVisibleBook,
  generatedCoverOrNone,
  lockOwnedBook,
  packageCoverOrNone,
  withKeptFiles,
} from "./books-service.ts";
import { removeDerivedFiles } from "./book-files.ts";
import { saveBookDocument } from "./book-documents-repository.ts";
import { fingerprintFile } from "./book-fingerprints.ts";
import { removeCover } from "./cover-images.ts";
import { deleteFingerprint, lockCopyChecks } from "./copies-repository.ts";
import { fingerprintAndCompare, hideAsCopy, refuseExactCopy } from "./copies.ts";
import { editionAt, findEdition, insertEdition, keepPageCountOfEdition, listEditions, type BookEditionRow } from "./editions-repository.ts";
import { BOOK_MIME_TYPES, extensionOf } from "./file-types.ts";
import { partialMd5 } from "./partial-md5.ts";
import { authorDisplayName } from "./present-book.ts";
import { checkBookFits } from "./storage-quota.ts";
import type { ReceivedFile } from "./upload-parser.ts";

/**
 * Living editions (docs/product.md#editions, docs/decisions/0105): an author replaces a book's file with
 * a new edition, with a changelog; the book keeps its page, counts, ratings and reviews, and its older
 * editions stay for the readers who want them.
 */

export const EDITION_UNCHANGED = "edition_unchanged";

const editionUnchanged = () =>
  conflict(EDITION_UNCHANGED, "This file is the book's current edition: a new edition needs a changed file.", { file: "upload.editionUnchanged" });

/** The book a new edition is for: live and the caller's (404 for a missing or deleted book, 403 for someone else's). Checked before the form's body is read. */
export async function findBookForNewEdition(db: Queryable, bookId: number, user: Pick<User, "id">): Promise<Book> {
  const book = await findLiveBook(db, bookId);
  if (!book) throw notFound("This book does not exist.");
  authorizeBookChange(user, book);
  return book;
}

/**
 * The cover a new edition brings, decided before its transaction: the author's own stays (null: no
 * change); a cover Plume made is made again for the new file: an EPUB's package cover, a typographic
 * one for a Word or EPUB file (kept as it is when the book already had one: it shows the title, not the
 * file), a PDF's by the cover queue once committed (its first page, or its typographic cover when that
 * page does not work as one: `url` null).
 */
async function coverOfNewEdition(
  { store }: Pick<BooksDeps, "store">,
  book: Book & { authorFirstName: string | null; authorLastName: string | null; authorEmail: string | null },
  fileType: BookFileType,
  packageCover: Uint8Array | null | undefined,
): Promise<{ url: string | null; source: "author" | "generated" | null } | null> {
  if (book.coverSource === "author") return null;
  if (fileType === "pdf") return { url: null, source: null };
  const fromPackage = await packageCoverOrNone(store, packageCover);
  if (fromPackage) return { url: fromPackage, source: "author" };
  if (book.coverSource === "generated" && book.coverImageUrl) return null;
  const url = await generatedCoverOrNone(store, { title: book.title, authorName: authorDisplayName(book), genre: (book.genre ?? null) as GenreKey | null });
  return { url, source: url ? "generated" : null };
}

/**
 * Publishes a new edition of one's book: the file is checked as an upload is (type, Word and EPUB checks,
 * quota, exact and near copies of other books), then, in one transaction, the edition's row is written,
 * the book's file columns point at it and its edition number moves on; what was made of the old file
 * (cover, page count, reading view, Plume's EPUB, KOReader ids, fingerprint) is made again; the old
 * edition keeps its page count and KOReader ids.
 */
export async function publishEdition(
  deps: BooksDeps,
  author: User,
  bookId: number,
  fields: EditionFields,
  received: ReceivedFile | undefined,
): Promise<BookEditionRow> {
  const { db, store, docxLimits, storageLimits, coverQueue, epubQueue, copyChecks, mailing } = deps;
  const { file, fileType, epub } = await checkBookFile(received, docxLimits);
  const before = await findLiveBook(db, bookId);
  if (!before) throw notFound("This book does not exist.");
  authorizeBookChange(author, before);
  if (before.fileSha256 === file.sha256) throw editionUnchanged();
  await checkBookFits(db, storageLimits, author.id, file.size);
  if (copyChecks) await refuseExactCopy(db, author, file.sha256, bookId);
  const fingerprint = copyChecks ? await fingerprintFile(file.tempPath, fileType) : undefined;
  const documentId = await partialMd5(file.tempPath);

  const storedFile = await store.keep(file.tempPath, "books", fileType);
  const cover = await withKeptFiles(store, { bookFile: storedFile }, () => coverOfNewEdition(deps, before, fileType, epub?.cover));
  const at = new Date();
  const { edition, replaced, hidden } = await withKeptFiles(store, { bookFile: storedFile, coverUrl: cover?.url ?? null }, () =>
    db.transaction(async (tx) => {
      if (!(await lockOpenAccount(tx, author.id))) throw unauthorized("This account has been deleted.");
      const book = await lockOwnedBook(tx, bookId, author);
      if (book.fileSha256 === file.sha256) throw editionUnchanged();
      await checkBookFits(tx, storageLimits, author.id, file.size);
      if (copyChecks) {
        await lockCopyChecks(tx);
        await refuseExactCopy(tx, author, file.sha256, bookId);
      }
      // A cover drawn from the book as it was a moment ago is kept only if the book's cover is still Plume's.
      const newCover = cover && book.coverSource !== "author" ? cover : null;
      const number = book.edition + 1;
      const inserted = await insertEdition(tx, {
        bookId,
        number,
        fileName: displayFileName(file.originalName),
        filePath: storedFile,
        fileSize: file.size,
        fileSha256: file.sha256,
        mimeType: BOOK_MIME_TYPES[fileType],
        changelog: fields.changelog,
        createdAt: at,
      });
      // Places saved by page alone become percentages of the old file before its page count goes; the
      // count stays with the old edition, where KOReader's places in its file are found by percentage.
      await keepPlacesAsPercentages(tx, bookId, book.pageCount);
      await keepPageCountOfEdition(tx, bookId, book.edition, book.pageCount);
      await updateBook(tx, bookId, {
        fileName: inserted.fileName,
        filePath: storedFile,
        fileSize: file.size,
        fileSha256: file.sha256,
        mimeType: inserted.mimeType,
        edition: number,
        // Counted again from the new file: a PDF's by the cover queue, a Word book's by its reading view.
        pageCount: null,
        epubSize: null,
        epubTitle: null,
        epubLanguage: null,
        epubCoverUrl: null,
        epubFailedVersion: null,
        ...(newCover ? { coverImageUrl: newCover.url, coverSource: newCover.source } : {}),
        updatedAt: at,
      });
      // The older editions' ids stay (their files were served, and are still): KOReader syncs from any of them.
      await saveBookDocument(tx, bookId, "file", number, documentId);
      // The new text is the book's: compared with other accounts' books as an upload is, never with its own editions.
      await deleteFingerprint(tx, bookId);
      const copy = fingerprint === undefined ? null : await fingerprintAndCompare(tx, book, fingerprint);
      const decision =
        copy && book.moderationState === null
          ? await hideAsCopy(tx, { book, author, copy, origin: mailing.origin, at })
          : null;
      return { edition: inserted, replaced: { file: book.filePath, coverUrl: newCover ? book.coverImageUrl : null }, hidden: decision };
    }),
  );
  // The old file stays (readers may take it); what was made from it goes.
  await Promise.all([removeDerivedFiles(store, replaced.file), removeCover(store, replaced.coverUrl)]);
  const pdf = fileType === "pdf";
  if (pdf || (cover !== null && cover.url === null)) coverQueue.add(bookId);
  if (!pdf) epubQueue.add(bookId);
  if (hidden) await mailDecision(db, mailing, hidden);
  return edition;
}

/** A visible book's editions, newest first, and the edition the signed-in caller last took (docs/product.md#editions). */
export async function readBookEditions(db: Queryable, bookId: number, viewer: Viewer): Promise<BookEditions> {
  const book = await findVisibleBook(db, bookId, viewer);
  const editions = await listEditions(db, book.id);
  const taken = viewer ? await takenEditionOf(db, book.id, viewer.id, editions) : null;
  return {
    current: book.edition,
    editions: editions.map((edition) => ({
      number: edition.number,
      createdAt: edition.createdAt.toISOString(),
      changelog: edition.changelog,
      format: extensionOf(edition.filePath) as BookFileType,
      fileSize: edition.fileSize,
    })),
    takenEdition: taken,
  };
}

/**
 * The newest edition the reader took, by a download of it (any channel) or a place saved while reading
 * it; a download from before editions were named took the edition current at its time. Null if never taken.
 */
async function takenEditionOf(db: Queryable, bookId: number, readerId: string, editions: BookEditionRow[]): Promise<number | null> {
  const [{ newest, lastUnnamedAt }, position] = await Promise.all([takenEditionsOf(db, bookId, readerId), findReadingPosition(db, readerId, bookId)]);
  if (newest === null && lastUnnamedAt === null) return null;
  const candidates = [newest, lastUnnamedAt && editionAt(editions, lastUnnamedAt), position?.edition].filter((number): number is number => typeof number === "number");
  return Math.max(...candidates);
}

/** An older edition of a book, as a download takes it; the current one is the book's own file. */
export async function findOlderEdition(db: Queryable, book: Pick<Book, "id" | "edition">, number: number): Promise<BookEditionRow> {
  const edition = number === book.edition ? undefined : await findEdition(db, book.id, number);
  if (!edition) throw notFound(`This book has no edition ${number}.`);
  return edition;
}
