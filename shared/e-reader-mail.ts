import { BOOK_FILE_MAX_BYTES } from "./books.ts";

/**
 * The most a book mailed to an e-reader may weigh (docs/product.md#send-to-e-reader): Amazon's mail
 * service refuses documents over 50 MB, and Plume's uploads stop at the same 50 MB, so every book's
 * own file fits and only an EPUB Plume made can be too large (docs/decisions/0100).
 */
export const E_READER_MAIL_MAX_BYTES = BOOK_FILE_MAX_BYTES;

/** POST /api/books/:id/send-to-e-reader: where the book went, under which name and type. */
export interface SentToEReader {
  sentTo: string;
  fileName: string;
  mimeType: string;
}
