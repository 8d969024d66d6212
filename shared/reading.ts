import { z } from "zod";

/** Reading in the browser (docs/product.md#reading): what the reader and the server agree on. */

/**
 * No book has more pages than this. A PDF whose page count the server does not know yet is held to it;
 * otherwise a page past the book's own last page is refused too.
 */
export const MAX_READER_PAGE = 100_000;

/** An EPUB CFI or a KOReader XPointer is a path through a document: long ones are a few hundred characters. */
export const MAX_LOCATOR_LENGTH = 1024;

/** How a book is shown: PDFs page by page with pdf.js, EPUBs (an uploaded one, or Plume's from a Word book) reflowed, Word files without their EPUB yet as the server's reading view. */
export const READER_FORMATS = ["pdf", "epub", "word"] as const;
export type ReaderFormat = (typeof READER_FORMATS)[number];

/**
 * The place to remember: the page (a PDF's page, a reading view's section, an EPUB's spine item),
 * and for a reflowed book how far through it is and the exact place (an EPUB CFI), so that another
 * device with other pages opens it at the same point (docs/product.md#progress-sync).
 */
export const readingPositionSchema = z.object({
  page: z
    .number({ error: "reader.pageInvalid" })
    .int("reader.pageInvalid")
    .min(1, "reader.pageInvalid")
    .max(MAX_READER_PAGE, "reader.pageTooLarge"),
  percentage: z.number({ error: "reader.percentageInvalid" }).min(0, "reader.percentageInvalid").max(1, "reader.percentageInvalid").optional(),
  locator: z.string({ error: "reader.locatorInvalid" }).max(MAX_LOCATOR_LENGTH, "reader.locatorInvalid").optional(),
  format: z.enum(READER_FORMATS, { error: "reader.formatInvalid" }).optional(),
});
export type ReadingPosition = z.output<typeof readingPositionSchema>;

/** A place as the reader is given it back: what was saved last, by the browser or by KOReader. */
export interface SavedPosition {
  page: number;
  percentage: number | null;
  locator: string | null;
  format: ReaderFormat | null;
  /** The e-reader that saved it (KOReader's device name), or null for a browser. */
  device: string | null;
  /**
   * True when it was saved in an older edition of the book's file (docs/product.md#editions): its page
   * and locator were that file's, so the reader opens the new one at `percentage` (page is already that
   * percentage's page when the server knows the new page count).
   */
  earlierEdition?: true;
}

/** How far through a book a page is: 0 for the first, 1 for the last (KOReader's measure too). */
export function percentageOfPage(page: number, pageCount: number): number {
  if (pageCount <= 1) return 0;
  return Math.min(1, Math.max(0, (page - 1) / (pageCount - 1)));
}

/** The page a share of the book falls on, the inverse of percentageOfPage. */
export function pageAtPercentage(percentage: number, pageCount: number): number {
  return Math.min(pageCount, Math.max(1, Math.round(percentage * (pageCount - 1)) + 1));
}

/** The answer to opening a book (POST /api/books/:id/read). */
export interface OpenedBook {
  id: number;
  title: string;
  format: ReaderFormat;
  /** The book's page count when the server knows it (a Word book's once its view is made); the reader learns it from the file otherwise. */
  pageCount: number | null;
  /** Where this reader was, or null the first time. */
  position: SavedPosition | null;
}

/** A Word book's reading view (GET /api/books/:id/read/view): sanitized HTML, one string per page. */
export interface WordView {
  pages: string[];
}

/** How long a reader waits before asking again for a Word book's view being made (the server's Retry-After). */
export const WORD_VIEW_RETRY_SECONDS = 5;

export const bookFileUrl = (bookId: number) => `/api/books/${bookId}/read/file`;
export const bookEpubUrl = (bookId: number) => `/api/books/${bookId}/read/epub`;
export const wordViewUrl = (bookId: number) => `/api/books/${bookId}/read/view`;
export const readingPositionUrl = (bookId: number) => `/api/books/${bookId}/read/position`;
export const openBookUrl = (bookId: number) => `/api/books/${bookId}/read`;
