import { and, asc, eq } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { books, reviews } from "../db/schema.ts";

/** One review per reader per book: a second one breaks reviews_one_per_reader_key (ratings-service.ts answers 409). */
export async function insertReview(tx: Queryable, values: typeof reviews.$inferInsert): Promise<void> {
  await tx.insert(reviews).values(values);
}

/** The reader's rating of a book, if they gave one. */
export async function findUserRating(db: Queryable, bookId: number, userId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ rating: reviews.rating })
    .from(reviews)
    .where(and(eq(reviews.bookId, bookId), eq(reviews.userId, userId)));
  return row?.rating;
}

/** The reader's ratings, oldest first, with each book's title: the reader's export. */
export async function listRatingsBy(db: Queryable, userId: string): Promise<Array<{ bookId: number; bookTitle: string; rating: number; ratedAt: Date }>> {
  return db
    .select({ bookId: reviews.bookId, bookTitle: books.title, rating: reviews.rating, ratedAt: reviews.createdAt })
    .from(reviews)
    .innerJoin(books, eq(books.id, reviews.bookId))
    .where(eq(reviews.userId, userId))
    .orderBy(asc(reviews.createdAt), asc(reviews.id));
}

/** Removes the reader's ratings; answers the books whose averages must be recomputed. */
export async function deleteRatingsBy(tx: Queryable, userId: string): Promise<number[]> {
  const deleted = await tx.delete(reviews).where(eq(reviews.userId, userId)).returning({ bookId: reviews.bookId });
  return deleted.map((row) => row.bookId);
}
