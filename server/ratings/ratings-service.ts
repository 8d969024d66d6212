import { and, eq, sql } from "drizzle-orm";
import type { RateInput } from "../../shared/book-schemas.ts";
import type { Db, Queryable } from "../db/client.ts";
import { type User, books, reviews } from "../db/schema.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import { conflict, notFound } from "../http/errors.ts";
import { type Viewer, canSeeBook, findVisibleBook } from "../books/books-policy.ts";
import { lockLiveBook } from "../books/books-repository.ts";
import { authorizeRating, authorizeRatingAs } from "./ratings-policy.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";

export interface BookRating {
  avgRating: number;
  reviewCount: number;
}

/** One rating per reader per book (409 on a second); the average and count change in the same transaction. */
export async function rateBook(db: Db, caller: User, adminEmail: string | undefined, input: RateInput): Promise<BookRating> {
  authorizeRatingAs(caller, input.userId);
  return db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, input.bookId);
    if (!book || !canSeeBook(book, { user: caller, adminEmail })) throw notFound("This book does not exist.");
    authorizeRating(caller, book);
    try {
      // A savepoint, so a duplicate leaves the transaction usable (and PostgreSQL's log quiet about it).
      await tx.transaction((savepoint) =>
        savepoint.insert(reviews).values({ bookId: book.id, userId: caller.id, rating: input.rating }),
      );
    } catch (error) {
      if (violatedUniqueConstraint(error) !== undefined) {
        throw conflict("already_rated", "You have already rated this book.", { rating: "errors.already_rated" });
      }
      throw error;
    }
    const [updated] = await tx
      .update(books)
      .set({
        rating: sql`(select round(avg(${reviews.rating})::numeric, 2) from ${reviews} where ${reviews.bookId} = ${book.id})`,
        reviewCount: sql`(select count(*)::int from ${reviews} where ${reviews.bookId} = ${book.id})`,
      })
      .where(eq(books.id, book.id))
      .returning({ rating: books.rating, reviewCount: books.reviewCount });
    return { avgRating: Number(updated!.rating), reviewCount: updated!.reviewCount };
  });
}

export async function readBookRating(db: Queryable, bookId: number, viewer: Viewer): Promise<BookRating> {
  const book = await findVisibleBook(db, bookId, viewer);
  return { avgRating: Number(book.rating), reviewCount: book.reviewCount };
}

/** The reader's own rating of a book, 0 when they have not rated it; theirs to read, and the admin's. */
export async function readUserRating(db: Queryable, caller: User, bookId: number, userId: string, adminEmail: string | undefined): Promise<number> {
  authorizeAccountRead(caller, userId, adminEmail, "You can only read your own ratings.");
  const [row] = await db
    .select({ rating: reviews.rating })
    .from(reviews)
    .where(and(eq(reviews.bookId, bookId), eq(reviews.userId, userId)));
  return row?.rating ?? 0;
}
