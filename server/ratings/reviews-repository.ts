import { type SQL, and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { ReviewSort } from "../../shared/reviews.ts";
import type { Queryable } from "../db/client.ts";
import { books, moderationDecisions, reviewHelpfulVotes, reviews, users } from "../db/schema.ts";

export type ReviewRow = typeof reviews.$inferSelect;
export type LockedReview = NonNullable<Awaited<ReturnType<typeof lockReviewWithBook>>>;

/** The reader's rating row of a book, with or without words, removed or not; locked when asked, for a change in the same transaction. */
export async function findOwnReview(tx: Queryable, bookId: number, userId: string, { lock = false } = {}): Promise<ReviewRow | undefined> {
  const query = tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.bookId, bookId), eq(reviews.userId, userId)));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** A review by its id, locked, with its book's title, author and state; none when its book is deleted. */
export async function lockReviewWithBook(tx: Queryable, id: number) {
  const [row] = await tx
    .select({
      review: reviews,
      book: { id: books.id, title: books.title, authorId: books.authorId, isPublished: books.isPublished, moderationState: books.moderationState, deletedAt: books.deletedAt },
    })
    .from(reviews)
    .innerJoin(books, and(eq(books.id, reviews.bookId), isNull(books.deletedAt)))
    .where(eq(reviews.id, id))
    .for("update", { of: reviews });
  return row;
}

export async function insertRating(tx: Queryable, values: typeof reviews.$inferInsert): Promise<ReviewRow> {
  const [row] = await tx.insert(reviews).values(values).returning();
  return row!;
}

export async function updateReview(tx: Queryable, id: number, values: Partial<typeof reviews.$inferInsert>): Promise<ReviewRow> {
  const [row] = await tx.update(reviews).set(values).where(eq(reviews.id, id)).returning();
  return row!;
}

export async function deleteReview(tx: Queryable, id: number): Promise<void> {
  await tx.delete(reviews).where(eq(reviews.id, id));
}

/** The words go, and with them the author's reply and the helpful votes they earned; the stars stay. */
export async function clearReviewText(tx: Queryable, id: number, at: Date): Promise<void> {
  await tx.delete(reviewHelpfulVotes).where(eq(reviewHelpfulVotes.reviewId, id));
  await tx.update(reviews).set({ comment: null, authorReply: null, authorRepliedAt: null, helpfulCount: 0, updatedAt: at }).where(eq(reviews.id, id));
}

/** Shown reviews: with words, and not removed by moderation. */
const shown = and(isNotNull(reviews.comment), isNull(reviews.moderationDecisionId))!;

const ORDER: Record<ReviewSort, SQL[]> = {
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  helpful: [desc(reviews.helpfulCount), desc(reviews.createdAt), desc(reviews.id)],
};

/** The columns the book page shows of a review; votedHelpful says whether the viewer marked it. */
function reviewColumns(viewerId: string | undefined) {
  return {
    id: reviews.id,
    userId: reviews.userId,
    rating: reviews.rating,
    comment: reviews.comment,
    createdAt: reviews.createdAt,
    updatedAt: reviews.updatedAt,
    authorReply: reviews.authorReply,
    authorRepliedAt: reviews.authorRepliedAt,
    helpfulCount: reviews.helpfulCount,
    firstName: users.firstName,
    lastName: users.lastName,
    username: users.username,
    votedHelpful: viewerId
      ? sql<boolean>`exists (select 1 from ${reviewHelpfulVotes} where ${reviewHelpfulVotes.reviewId} = ${reviews.id} and ${reviewHelpfulVotes.userId} = ${viewerId})`
      : sql<boolean>`false`,
  };
}
export type ListedReview = Awaited<ReturnType<typeof listBookReviews>>[number];

/** A page of the book's shown reviews, one row more than asked to tell whether another page follows; deleted accounts' are gone already. */
export async function listBookReviews(db: Queryable, bookId: number, { sort, offset, limit, viewerId }: { sort: ReviewSort; offset: number; limit: number; viewerId?: string }) {
  return db
    .select(reviewColumns(viewerId))
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(and(eq(reviews.bookId, bookId), shown, isNull(users.deletedAt)))
    .orderBy(...ORDER[sort])
    .offset(offset)
    .limit(limit);
}

export async function countBookReviews(db: Queryable, bookId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.bookId, bookId), shown));
  return row?.count ?? 0;
}

/** One review as the book page shows it, to its viewer; none when removed. */
export async function findListedReview(db: Queryable, id: number, viewerId: string | undefined): Promise<ListedReview | undefined> {
  const [row] = await db
    .select(reviewColumns(viewerId))
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(and(eq(reviews.id, id), isNull(reviews.moderationDecisionId)));
  return row;
}

/** The book's most helpful shown reviews, for the page's structured data (docs/product.md#reviews). */
export async function listTopReviews(db: Queryable, bookId: number, limit: number) {
  return listBookReviews(db, bookId, { sort: "helpful", offset: 0, limit });
}

/** Marks a review helpful once per reader; answers whether this was a new vote. The count changes with it. */
export async function addHelpfulVote(tx: Queryable, reviewId: number, userId: string): Promise<boolean> {
  const added = await tx.insert(reviewHelpfulVotes).values({ reviewId, userId }).onConflictDoNothing().returning({ reviewId: reviewHelpfulVotes.reviewId });
  if (added.length > 0) await tx.update(reviews).set({ helpfulCount: sql`${reviews.helpfulCount} + 1` }).where(eq(reviews.id, reviewId));
  return added.length > 0;
}

export async function removeHelpfulVote(tx: Queryable, reviewId: number, userId: string): Promise<boolean> {
  const removed = await tx
    .delete(reviewHelpfulVotes)
    .where(and(eq(reviewHelpfulVotes.reviewId, reviewId), eq(reviewHelpfulVotes.userId, userId)))
    .returning({ reviewId: reviewHelpfulVotes.reviewId });
  if (removed.length > 0) await tx.update(reviews).set({ helpfulCount: sql`greatest(${reviews.helpfulCount} - 1, 0)` }).where(eq(reviews.id, reviewId));
  return removed.length > 0;
}

/** An account's helpful votes go, and each review it had marked counts one fewer. */
export async function deleteHelpfulVotesBy(tx: Queryable, userId: string): Promise<void> {
  const removed = await tx.delete(reviewHelpfulVotes).where(eq(reviewHelpfulVotes.userId, userId)).returning({ reviewId: reviewHelpfulVotes.reviewId });
  const ids = removed.map((row) => row.reviewId);
  if (ids.length > 0) await tx.update(reviews).set({ helpfulCount: sql`greatest(${reviews.helpfulCount} - 1, 0)` }).where(inArray(reviews.id, ids));
}

/** The reader's reviews with words, oldest first, for their export. */
export async function listReviewsBy(db: Queryable, userId: string) {
  return db
    .select({
      bookId: reviews.bookId,
      bookTitle: books.title,
      rating: reviews.rating,
      text: reviews.comment,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      authorReply: reviews.authorReply,
      // When the removal in force was decided; null while nothing removes it.
      removedAt: moderationDecisions.createdAt,
    })
    .from(reviews)
    .innerJoin(books, eq(books.id, reviews.bookId))
    .leftJoin(moderationDecisions, eq(moderationDecisions.id, reviews.moderationDecisionId))
    .where(and(eq(reviews.userId, userId), isNotNull(reviews.comment)))
    .orderBy(asc(reviews.createdAt), asc(reviews.id));
}

/** The replies an author wrote to reviews of their books, oldest first, for their export. */
export async function listRepliesBy(db: Queryable, authorId: string) {
  return db
    .select({ bookId: reviews.bookId, bookTitle: books.title, reply: reviews.authorReply, repliedAt: reviews.authorRepliedAt })
    .from(reviews)
    .innerJoin(books, eq(books.id, reviews.bookId))
    .where(and(eq(books.authorId, authorId), isNotNull(reviews.authorReply)))
    .orderBy(asc(reviews.authorRepliedAt), asc(reviews.id));
}

/** The ids of the account's reviews: the ones its deletion takes away. */
export async function reviewIdsBy(tx: Queryable, userId: string): Promise<number[]> {
  const rows = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.userId, userId));
  return rows.map((row) => row.id);
}

/** A review anyone may report: shown (with words, not removed) on a live book; with its book's title. */
export async function findReportableReview(db: Queryable, id: number): Promise<{ id: number; userId: string; bookTitle: string } | undefined> {
  const [row] = await db
    .select({ id: reviews.id, userId: reviews.userId, bookTitle: books.title })
    .from(reviews)
    .innerJoin(books, and(eq(books.id, reviews.bookId), isNull(books.deletedAt)))
    .where(and(eq(reviews.id, id), shown));
  return row;
}
