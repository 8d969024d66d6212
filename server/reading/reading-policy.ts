import type { Book } from "../db/schema.ts";
import { conflict, forbidden, validationFailed } from "../http/errors.ts";
import { extensionOf } from "../books/file-types.ts";
import { MAX_READER_PAGE, type ReaderFormat } from "../../shared/reading.ts";

/** A PDF is read page by page from its bytes, an EPUB from its own file too; a DOC or DOCX through the server's reading view. */
export function readerFormatOf(book: Pick<Book, "filePath">): ReaderFormat {
  const extension = extensionOf(book.filePath);
  return extension === "pdf" || extension === "epub" ? extension : "word";
}

const NOT_OF_FORMAT: Record<ReaderFormat, [code: string, message: string]> = {
  pdf: ["not_a_pdf", "This book is not a PDF: it is read in its own format."],
  word: ["not_a_word_book", "This book is not a Word document: it is read from its file."],
  epub: ["not_an_epub", "This book is not an EPUB: it is read in its own format."],
};

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
  throw conflict(...NOT_OF_FORMAT[wanted]);
}

/** A page past the book's last one is bad input like any other (the schema already holds it to MAX_READER_PAGE). */
export function checkPageInBook(page: number, pageCount: number | null): void {
  const last = pageCount ?? MAX_READER_PAGE;
  if (page > last) throw validationFailed(`Invalid request. page: this book has ${last} pages.`, { page: "reader.pageTooLarge" });
}
