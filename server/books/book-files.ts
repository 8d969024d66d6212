import type { FileStore } from "../storage/file-store.ts";
import { removeCover } from "./cover-images.ts";

/**
 * The files derived from a Word book's file, named after it so that any server sharing the files finds
 * them (docs/decisions/0051): its reading view, gzipped JSON, and the record of a conversion that failed.
 * They go with the book, and the start-up sweep keeps them while the book lives (orphan-files.ts).
 */
export function derivedNamesOf(bookFile: string): { view: string; failure: string } {
  const stem = bookFile.slice(0, bookFile.lastIndexOf("."));
  return { view: `${stem}.json`, failure: `${stem}.fail` };
}

/** Removes everything stored for a book: its file, its cover's sizes and what was derived from its file. */
export async function removeBookFiles(store: FileStore, book: { filePath: string; coverImageUrl: string | null }): Promise<void> {
  const { view, failure } = derivedNamesOf(book.filePath);
  await Promise.all([
    store.remove("books", book.filePath),
    removeCover(store, book.coverImageUrl),
    store.remove("views", view),
    store.remove("views", failure),
  ]);
}
