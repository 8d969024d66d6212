import type { KoreaderProgress, KoreaderSavedProgress } from "../../shared/kosync.ts";
import type { ReaderFormat } from "../../shared/reading.ts";
import { type BookDocumentFile, findBookDocuments } from "../books/book-documents-repository.ts";
import { EPUB_MIME_TYPE } from "../books/book-files.ts";
import type { BookWithAuthor } from "../books/books-repository.ts";
import { findTakeableBook } from "../books/books-service.ts";
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
function formatOfDocument(book: Pick<BookWithAuthor, "filePath" | "mimeType">, file: BookDocumentFile): ReaderFormat {
  if (file === "epub" || book.mimeType === EPUB_MIME_TYPE) return "epub";
  return extensionOf(book.filePath) === "pdf" ? "pdf" : "word";
}

/**
 * The book behind a KOReader document id, among those the caller may take and has taken: a file
 * Plume never served them has no place here (404, as for a book they cannot see).
 */
async function takenBookOfDocument(db: Db, viewer: ReaderViewer, document: string): Promise<{ book: BookWithAuthor; format: ReaderFormat }> {
  for (const { bookId, file } of await findBookDocuments(db, document)) {
    const book = await findTakeableBook(db, bookId, viewer).catch((error: unknown) => {
      if (error instanceof HttpError && error.status < 500) return undefined;
      throw error;
    });
    if (book && (await hasDownloadedBefore(db, book.id, viewer.id))) return { book, format: formatOfDocument(book, file) };
  }
  throw new HttpError(404, "document_unknown", "Plume keeps progress only for books you took from Plume, in the files it served.");
}

/** The page a KOReader place stands for in Plume's reader: a PDF's page, an EPUB's spine item, a reading view's page by its share. */
function pageOfPlace(progress: KoreaderProgress, format: ReaderFormat, pageCount: number | null): number {
  const page = pageOfKoreaderProgress(progress.progress, format);
  if (format === "word") return pageCount === null ? 1 : Math.min(pageCount, Math.floor(progress.percentage * pageCount) + 1);
  return format === "pdf" && pageCount !== null ? Math.min(page, pageCount) : page;
}

export async function saveKoreaderProgress(db: Db, viewer: ReaderViewer, progress: KoreaderProgress, at: Date): Promise<{ document: string; timestamp: number }> {
  const { book, format } = await takenBookOfDocument(db, viewer, progress.document);
  const page = pageOfPlace(progress, format, book.pageCount);
  await saveReadingPosition(
    db,
    viewer.id,
    book.id,
    { page, percentage: progress.percentage, locator: progress.progress, format, device: progress.device, deviceId: progress.device_id },
    at,
  );
  return { document: progress.document, timestamp: Math.floor(at.getTime() / 1000) };
}

/** The last place of the book behind the document, as KOReader reads it; nothing (`{}`, KOReader's "no progress") when there is none it could go to. */
export async function koreaderProgress(db: Db, viewer: ReaderViewer, document: string): Promise<KoreaderSavedProgress | Record<string, never>> {
  const { book, format } = await takenBookOfDocument(db, viewer, document);
  const saved = await findReadingPosition(db, viewer.id, book.id);
  if (!saved) return {};
  // Positions from before formats were told apart were a PDF's page or a reading view's.
  const savedFormat = saved.format ?? (extensionOf(book.filePath) === "pdf" ? "pdf" : "word");
  const position = { ...saved, format: savedFormat };
  const progress = koreaderProgressOf(position, format, book.pageCount);
  if (progress === null) return {};
  return {
    document,
    progress,
    percentage: percentageOf(position, savedFormat === "epub" ? null : book.pageCount),
    ...(saved.device === null ? BROWSER_DEVICE : { device: saved.device, device_id: saved.deviceId ?? saved.device }),
    timestamp: Math.floor(saved.updatedAt.getTime() / 1000),
  };
}
