import { z } from "zod";
import type { BookFileType } from "./books.ts";
import { TEXT_INVALID, isMultiLineText } from "./typed-text.ts";

/** A book's editions (docs/product.md#editions): what the new-edition form, the route and the book page agree on. */

/** The changelog's bounds, in characters once trimmed: a line or a short paragraph of what changed. */
export const CHANGELOG_MAX = 1000;

/** The new-edition form's fields besides its file; the file is the upload's (PDF, DOC, DOCX or EPUB). */
export const editionFieldsSchema = z.object({
  changelog: z
    .string({ error: "validation.changelogRequired" })
    .trim()
    .min(1, "validation.changelogRequired")
    .max(CHANGELOG_MAX, "validation.changelogMax")
    .refine(isMultiLineText, TEXT_INVALID),
});
export type EditionFieldsInput = z.input<typeof editionFieldsSchema>;
export type EditionFields = z.output<typeof editionFieldsSchema>;

/** An edition as the book page lists it. */
export interface BookEdition {
  number: number;
  /** When it was published (ISO 8601). */
  createdAt: string;
  /** What changed, in the author's words; null for the first edition. */
  changelog: string | null;
  format: BookFileType;
  fileSize: number;
}

/** GET /api/books/:id/editions: every edition, newest first, and what the caller took of them. */
export interface BookEditions {
  /** The current edition's number: the book's file. */
  current: number;
  editions: BookEdition[];
  /**
   * The edition that was current when the signed-in caller last took the book (downloaded, read, sent,
   * through OPDS); null when they never took it (or are not signed in). Below `current`: a new edition since.
   */
  takenEdition: number | null;
}

export const bookEditionsUrl = (bookId: number) => `/api/books/${bookId}/editions`;
