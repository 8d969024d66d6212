import type { Book } from "../db/schema.ts";
import { conflict, forbidden, validationFailed } from "../http/errors.ts";
import { EPUB_MIME_TYPE } from "../books/book-files.ts";
import { extensionOf } from "../books/file-types.ts";
import { MAX_READER_PAGE, type ReaderFormat } from "../../shared/reading.ts";

export type ReaderFormatSource = Pick<Book, "filePath" | "mimeType" | "epubSize">;

/**
 * The ways a book can be read, the reader's first: a PDF page by page from its bytes; an EPUB reflowed
 * from its bytes; a DOC or DOCX from the EPUB Plume made of it once made, and from the server's reading
 * view all along (a reader who opened it before its EPUB was made keeps reading it there).
 */
export function readableFormatsOf(book: ReaderFormatSource): ReaderFormat[] {
  if (book.mimeType === EPUB_MIME_TYPE) return ["epub"];
  if (extensionOf(book.filePath) === "pdf") return ["pdf"];
  return book.epubSize !== null ? ["epub", "word"] : ["word"];
}

export const readerFormatOf = (book: ReaderFormatSource): ReaderFormat => readableFormatsOf(book)[0]!;

/**
 * A book's bytes, its reading view and a position are only for a reader who has opened it (or
 * downloaded it): the opening is what counts, so there is no way to read without being counted
 * (docs/product.md#reading).
 */
export function authorizeReading(hasTakenBook: boolean): void {
  if (!hasTakenBook) throw forbidden("Open this book in the reader first.");
}

/** What a reader asking for the wrong content of a book is told: each format has one way to be read. */
const WRONG_FORMAT: Record<ReaderFormat, { code: string; message: string }> = {
  pdf: { code: "not_a_pdf", message: "This book is not a PDF: the reader shows it from its EPUB or its reading view." },
  epub: { code: "not_an_epub", message: "This book has no EPUB to read: the reader shows it from its PDF or its reading view." },
  word: { code: "not_a_word_book", message: "This book has no reading view: the reader shows it from its PDF or its EPUB." },
};

export function requireFormat(book: ReaderFormatSource, wanted: ReaderFormat): void {
  if (readableFormatsOf(book).includes(wanted)) return;
  const { code, message } = WRONG_FORMAT[wanted];
  throw conflict(code, message);
}

/** A page past the book's last one is bad input like any other (the schema already holds it to MAX_READER_PAGE). */
export function checkPageInBook(page: number, pageCount: number | null): void {
  const last = pageCount ?? MAX_READER_PAGE;
  if (page > last) throw validationFailed(`Invalid request. page: this book has ${last} pages.`, { page: "reader.pageTooLarge" });
}
