import type { Book } from "../db/schema.ts";
import type { FileStore, StoredKind } from "../storage/file-store.ts";
import { removeCover } from "./cover-images.ts";
import { BOOK_MIME_TYPES, extensionOf } from "./file-types.ts";

/**
 * The files derived from a Word book's file, named after it so that any server sharing the files finds
 * them (docs/decisions/0051): its reading view, gzipped JSON, the record of a conversion that failed,
 * and the EPUB Plume made from it (docs/product.md#epub). They go with the book, and the start-up sweep
 * keeps them while the book lives (orphan-files.ts).
 */
export function derivedNamesOf(bookFile: string): { view: string; failure: string; epub: string } {
  const stem = bookFile.slice(0, bookFile.lastIndexOf("."));
  return { view: `${stem}.json`, failure: `${stem}.fail`, epub: `${stem}.epub` };
}

export const EPUB_MIME_TYPE = BOOK_MIME_TYPES.epub;

/** A file readers may take of a book: its own ("file"), or the EPUB Plume made from a Word book ("epub"). */
export interface BookFormat {
  file: "file" | "epub";
  kind: StoredKind;
  name: string;
  size: number;
  mimeType: string;
  /** The extension its download is named with. */
  extension: string;
}

/** The files of a book a reader may take, its own first (docs/product.md#epub). */
export function formatsOf(book: Pick<Book, "filePath" | "fileSize" | "mimeType" | "epubSize">): BookFormat[] {
  const own: BookFormat = { file: "file", kind: "books", name: book.filePath, size: book.fileSize, mimeType: book.mimeType, extension: extensionOf(book.filePath) };
  if (book.epubSize === null) return [own];
  return [own, { file: "epub", kind: "views", name: derivedNamesOf(book.filePath).epub, size: book.epubSize, mimeType: EPUB_MIME_TYPE, extension: "epub" }];
}

/** The same files, the made EPUB first: what an e-reader takes best (docs/product.md#epub). */
export const epubFirst = (formats: BookFormat[]): BookFormat[] => [...formats].sort((a, b) => Number(b.file === "epub") - Number(a.file === "epub"));

/** What a file of a book left derived from it (its reading view, a failure's record, Plume's EPUB) once it is no longer the book's current one. */
export async function removeDerivedFiles(store: FileStore, bookFile: string): Promise<void> {
  const { view, failure, epub } = derivedNamesOf(bookFile);
  await Promise.all([store.remove("views", view), store.remove("views", failure), store.remove("views", epub)]);
}

/**
 * Removes everything stored for a book: its file, its older editions' files (docs/product.md#editions),
 * its cover's sizes and what was derived from its file.
 */
export async function removeBookFiles(store: FileStore, book: { filePath: string; coverImageUrl: string | null }, olderEditionFiles: string[] = []): Promise<void> {
  const { view, failure, epub } = derivedNamesOf(book.filePath);
  await Promise.all([
    ...olderEditionFiles.map((file) => store.remove("books", file)),
    store.remove("books", book.filePath),
    removeCover(store, book.coverImageUrl),
    store.remove("views", view),
    store.remove("views", failure),
    store.remove("views", epub),
  ]);
}
