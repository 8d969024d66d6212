import { z } from "zod";

/** Reading in the browser (docs/product.md#reading): what the reader and the server agree on. */

/**
 * No book has more pages than this. A PDF whose page count the server does not know yet is held to it;
 * otherwise a page past the book's own last page is refused too.
 */
export const MAX_READER_PAGE = 100_000;

/** The page to remember: a whole number from 1, sent as a JSON number. */
export const readingPositionSchema = z.object({
  page: z
    .number({ error: "reader.pageInvalid" })
    .int("reader.pageInvalid")
    .min(1, "reader.pageInvalid")
    .max(MAX_READER_PAGE, "reader.pageTooLarge"),
});
export type ReadingPosition = z.output<typeof readingPositionSchema>;

/** How a book is shown: PDFs page by page with pdf.js, Word files as the server's reading view. */
export type ReaderFormat = "pdf" | "word";

/** The answer to opening a book (POST /api/books/:id/read). */
export interface OpenedBook {
  id: number;
  title: string;
  format: ReaderFormat;
  /** The book's page count when the server knows it (a Word book's once its view is made); the reader learns it from the file otherwise. */
  pageCount: number | null;
  /** The page this reader was on, or null the first time. */
  page: number | null;
}

/** A Word book's reading view (GET /api/books/:id/read/view): sanitized HTML, one string per page. */
export interface WordView {
  pages: string[];
}

/** How long a reader waits before asking again for a Word book's view being made (the server's Retry-After). */
export const WORD_VIEW_RETRY_SECONDS = 5;

export const bookFileUrl = (bookId: number) => `/api/books/${bookId}/read/file`;
export const wordViewUrl = (bookId: number) => `/api/books/${bookId}/read/view`;
export const readingPositionUrl = (bookId: number) => `/api/books/${bookId}/read/position`;
export const openBookUrl = (bookId: number) => `/api/books/${bookId}/read`;
