import type { KoreaderProgress, KoreaderSavedProgress } from "../../shared/kosync.ts";
import { type ReaderFormat, pageAtPercentage } from "../../shared/reading.ts";
import { type BookDocumentFile, findBookDocuments } from "../books/book-documents-repository.ts";
import { EPUB_MIME_TYPE } from "../books/book-files.ts";
import type { BookWithAuthor } from "../books/books-repository.ts";
import { findTakeableBook } from "../books/books-service.ts";
import { findEdition } from "../books/editions-repository.ts";
import { extensionOf } from "../books/file-types.ts";
import type { Db } from "../db/client.ts";
import { hasDownloadedBefore } from "../downloads/downloads-repository.ts";
import { HttpError } from "../http/errors.ts";
import { findReadingPosition, saveReadingPosition } from "../reading/reading-positions-repository.ts";
import type { ReaderViewer } from "../reading/reading-service.ts";
import { koreaderProgressOf, pageOfKoreaderProgress, percentageOf } from "./koreader-places.ts";

/**
 * KOReader's progress sync over the positions the browser reader keeps (docs/product.md#progress-sync):
 * one place per reader and book, whoever saved it last, translated to the terms of the file asked about.
 */

/** How the browser names itself to KOReader, whose plugin says which device a place comes from. */
const BROWSER_DEVICE = { device: "Plume (browser)", device_id: "plume-browser" };

/** How the file KOReader holds shows a place: by pages (a PDF), by its EPUB spine, or reflowed from a Word file. */
function formatOfDocument(edition: Pick<BookWithAuthor, "filePath" | "mimeType">, file: BookDocumentFile): ReaderFormat {
  if (file === "epub" || edition.mimeType === EPUB_MIME_TYPE) return "epub";
  return extensionOf(edition.filePath) === "pdf" ? "pdf" : "word";
}

/**
 * The file KOReader holds, as Plume served it: the book, the edition it is of (docs/product.md#editions),
 * its own file's path, how it shows a place, and its page count when known (an older edition's is the
 * one it had when it was replaced).
 */
interface HeldDocument {
  book: BookWithAuthor;
  edition: number;
  filePath: string;
  format: ReaderFormat;
  pageCount: number | null;
}

/**
 * The book behind a KOReader document id, among those the caller may take and has taken: a file
 * Plume never served them has no place here (404, as for a book they cannot see). Any edition's
 * file is the book's.
 */
async function takenBookOfDocument(db: Db, viewer: ReaderViewer, document: string): Promise<HeldDocument> {
  for (const { bookId, file, edition } of await findBookDocuments(db, document)) {
    const book = await findTakeableBook(db, bookId, viewer).catch((error: unknown) => {
      if (error instanceof HttpError && error.status < 500) return undefined;
      throw error;
    });
    if (!book || !(await hasDownloadedBefore(db, book.id, viewer.id))) continue;
    const served = edition === book.edition ? book : await findEdition(db, book.id, edition);
    if (served) return { book, edition, filePath: served.filePath, format: formatOfDocument(served, file), pageCount: served.pageCount };
  }
  throw new HttpError(404, "document_unknown", "Plume keeps progress only for books you took from Plume, in the files it served.");
}

/** The page a KOReader place stands for in Plume's reader: a PDF's page, an EPUB's spine item, a reading view's page by its share. */
function pageOfPlace(progress: KoreaderProgress, format: ReaderFormat, pageCount: number | null): number {
  const page = pageOfKoreaderProgress(progress.progress, format);
  if (format === "word") return pageCount === null ? 1 : Math.min(pageCount, Math.floor(progress.percentage * pageCount) + 1);
  return format === "pdf" && pageCount !== null ? Math.min(page, pageCount) : page;
}

/** Saves KOReader's place in the edition its file is of: the book page then knows which edition the reader took. */
export async function saveKoreaderProgress(db: Db, viewer: ReaderViewer, progress: KoreaderProgress, at: Date): Promise<{ document: string; timestamp: number }> {
  const held = await takenBookOfDocument(db, viewer, progress.document);
  const page = pageOfPlace(progress, held.format, held.pageCount);
  await saveReadingPosition(
    db,
    viewer.id,
    held.book.id,
    { page, percentage: progress.percentage, locator: progress.progress, format: held.format, device: progress.device, deviceId: progress.device_id, edition: held.edition },
    at,
  );
  return { document: progress.document, timestamp: Math.floor(at.getTime() / 1000) };
}

/** The last place of the book behind the document, as KOReader reads it; nothing (`{}`, KOReader's "no progress") when there is none it could go to. */
export async function koreaderProgress(db: Db, viewer: ReaderViewer, document: string): Promise<KoreaderSavedProgress | Record<string, never>> {
  const held = await takenBookOfDocument(db, viewer, document);
  const saved = await findReadingPosition(db, viewer.id, held.book.id);
  if (!saved) return {};
  const from = {
    ...(saved.device === null ? BROWSER_DEVICE : { device: saved.device, device_id: saved.deviceId ?? saved.device }),
    timestamp: Math.floor(saved.updatedAt.getTime() / 1000),
  };
  // A place in another edition than the file's (docs/product.md#editions) keeps only how far through it was: a PDF's page at that share.
  if ((saved.edition ?? 1) !== held.edition) {
    if (held.format !== "pdf" || saved.percentage === null || held.pageCount === null) return {};
    return { document, progress: String(pageAtPercentage(saved.percentage, held.pageCount)), percentage: saved.percentage, ...from };
  }
  // Positions from before formats were told apart were a PDF's page or a reading view's.
  const savedFormat = saved.format ?? (extensionOf(held.filePath) === "pdf" ? "pdf" : "word");
  const position = { ...saved, format: savedFormat };
  const progress = koreaderProgressOf(position, held.format, held.pageCount);
  if (progress === null) return {};
  return { document, progress, percentage: percentageOf(position, savedFormat === "epub" ? null : held.pageCount), ...from };
}
