import type { RateInput } from "../../shared/book-schemas.ts";
import type { BookRating } from "../../shared/books.ts";
import type { Db, Queryable } from "../db/client.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import { conflict, notFound } from "../http/errors.ts";
import { type Viewer, canSeeBook } from "../books/books-policy.ts";
import { findVisibleBook } from "../books/books-service.ts";
import { lockLiveBook, refreshRating } from "../books/books-repository.ts";
import { authorizeRating, authorizeRatingAs } from "./ratings-policy.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";
import { findUserRating, insertReview } from "./ratings-repository.ts";

/** One rating per reader per book (409 on a second); the average and count change in the same transaction. */
export async function rateBook(db: Db, caller: Express.User, input: RateInput): Promise<BookRating> {
  authorizeRatingAs(caller, input.userId);
  return db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, input.bookId);
    if (!book || !canSeeBook(book, caller)) throw notFound("This book does not exist.");
    authorizeRating(caller, book);
    try {
      // A savepoint, so a duplicate leaves the transaction usable (and PostgreSQL's log quiet about it).
      await tx.transaction((savepoint) => insertReview(savepoint, { bookId: book.id, userId: caller.id, rating: input.rating }));
    } catch (error) {
      if (violatedUniqueConstraint(error) !== undefined) {
        throw conflict("already_rated", "You have already rated this book.", { rating: "errors.already_rated" });
      }
      throw error;
    }
    const updated = await refreshRating(tx, book.id);
    return { avgRating: Number(updated.rating), reviewCount: updated.reviewCount };
  });
}

export async function readBookRating(db: Queryable, bookId: number, viewer: Viewer): Promise<BookRating> {
  const book = await findVisibleBook(db, bookId, viewer);
  return { avgRating: Number(book.rating), reviewCount: book.reviewCount };
}

/** The reader's own rating of a book, 0 when they have not rated it; theirs to read, and the admin's. */
export async function readUserRating(db: Queryable, caller: Express.User, bookId: number, userId: string): Promise<number> {
  authorizeAccountRead(caller, userId, "You can only read your own ratings.");
  return (await findUserRating(db, bookId, userId)) ?? 0;
}
