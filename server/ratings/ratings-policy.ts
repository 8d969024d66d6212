import type { Book, User } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";

/** A rating is given in one's own name (docs/product.md#ratings). */
export function authorizeRatingAs(caller: User, userId: string): void {
  if (userId !== caller.id) throw forbidden("You can only rate as yourself.");
}

/** Readers rate published books of others; an author never rates their own (docs/product.md#ratings). */
export function authorizeRating(caller: User, book: Pick<Book, "authorId" | "isPublished">): void {
  if (book.authorId === caller.id) throw forbidden("Authors cannot rate their own books.");
  if (!book.isPublished) throw forbidden("This book is not published: it cannot be rated.");
}
