import type { Book } from "../db/schema.ts";
import { conflict, forbidden, validationFailed } from "../http/errors.ts";
import { extensionOf } from "../books/file-types.ts";
import { MAX_READER_PAGE, type ReaderFormat } from "../../shared/reading.ts";

/** A PDF is read page by page from its bytes; a DOC or DOCX through the server's reading view. */
export const readerFormatOf = (book: Pick<Book, "filePath">): ReaderFormat => (extensionOf(book.filePath) === "pdf" ? "pdf" : "word");

/**
 * A book's bytes, its reading view and a position are only for a reader who has opened it (or
 * downloaded it): the opening is what counts, so there is no way to read without being counted
 * (docs/product.md#reading).
 */
export function authorizeReading(hasTakenBook: boolean): void {
  if (!hasTakenBook) throw forbidden("Open this book in the reader first.");
}

export function requireFormat(book: Pick<Book, "filePath">, wanted: ReaderFormat): void {
  if (readerFormatOf(book) === wanted) return;
  throw wanted === "pdf"
    ? conflict("not_a_pdf", "This book is a Word document: it is read through its reading view.")
    : conflict("not_a_word_book", "This book is a PDF: it is read from its file.");
}

/** A page past the book's last one is bad input like any other (the schema already holds it to MAX_READER_PAGE). */
export function checkPageInBook(page: number, pageCount: number | null): void {
  const last = pageCount ?? MAX_READER_PAGE;
  if (page > last) throw validationFailed(`Invalid request. page: this book has ${last} pages.`, { page: "reader.pageTooLarge" });
}
