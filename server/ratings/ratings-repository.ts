import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { reviews } from "../db/schema.ts";

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
