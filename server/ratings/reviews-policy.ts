import type { Book, User } from "../db/schema.ts";
import { bookNotTaken, forbidden, ownReview } from "../http/errors.ts";

/** A review is written by a reader who took the book, never by its author (docs/product.md#reviews). */
export function authorizeReview(caller: Pick<User, "id">, book: Pick<Book, "authorId" | "isPublished">, tookBook: boolean): void {
  if (book.authorId === caller.id) throw forbidden("Authors cannot review their own books.");
  if (!book.isPublished) throw forbidden("This book is not published: it cannot be reviewed.");
  if (!tookBook) throw bookNotTaken();
}

/** Only the book's author replies to its reviews, the admin no more than anyone (docs/product.md#reviews). */
export function authorizeReply(caller: Pick<User, "id">, book: Pick<Book, "authorId">): void {
  if (book.authorId !== caller.id) throw forbidden("Only the book's author can reply to its reviews.");
}

/** "Helpful" is another reader's word: never one's own review's. */
export function authorizeHelpfulVote(caller: Pick<User, "id">, review: { userId: string }): void {
  if (review.userId === caller.id) throw ownReview();
}

/** An author has no rating or review of their own book to change or take back (docs/product.md#reviews). */
export function authorizeOwnRatingChange(caller: Pick<User, "id">, book: Pick<Book, "authorId">): void {
  if (book.authorId === caller.id) throw forbidden("Authors have no rating or review of their own books.");
}
