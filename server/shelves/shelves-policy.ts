import type { Book } from "../db/schema.ts";
import { type Viewer, authorizeExplicitTaking, canSeeBook, unseenBookError } from "../books/books-policy.ts";
import { notFound } from "../http/errors.ts";

/**
 * A book goes on a shelf when it is listed — published, and not restricted by moderation — for everyone,
 * its author included; an explicit one only for a reader who chose to see explicit books
 * (docs/product.md#shelves). Anything else is the same answer its page gives (404, 410, 451).
 */
export function authorizeShelving<T extends Pick<Book, "isPublished" | "moderationState" | "authorId" | "contentRating">>(
  book: T | undefined,
  viewer: Viewer,
): asserts book is T {
  if (!book || !canSeeBook(book, undefined)) throw unseenBookError(book);
  authorizeExplicitTaking(book, viewer);
}

/**
 * A reader's page shows only while they keep their shelves public and their account is open: off,
 * unknown, suspended and deleted are one 404, so the address tells nothing of the account.
 */
export function authorizePublicShelves(reader: { shelvesPublic: boolean; suspended: boolean; deleted: boolean } | undefined): void {
  if (!reader || !reader.shelvesPublic || reader.suspended || reader.deleted) throw notFound("This reader's shelves are not public.");
}
