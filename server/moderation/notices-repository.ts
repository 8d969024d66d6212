import { type SQL, and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { books, notices, reviews, users } from "../db/schema.ts";
import { alias } from "drizzle-orm/pg-core";

const reviewedBook = alias(books, "reviewed_book");

export type NoticeRow = typeof notices.$inferSelect;
type NoticeStatus = NoticeRow["status"];

export async function insertNotice(db: Queryable, values: typeof notices.$inferInsert): Promise<NoticeRow> {
  const [notice] = await db.insert(notices).values(values).returning();
  return notice!;
}

/** The open notices, oldest first, with the book's title and state and the account's names. */
export async function listOpenNotices(db: Queryable) {
  return db
    .select({
      notice: notices,
      bookTitle: books.title,
      bookModerationState: books.moderationState,
      bookDeletedAt: books.deletedAt,
      accountFirstName: users.firstName,
      accountLastName: users.lastName,
      accountUsername: users.username,
      accountSuspendedAt: users.suspendedAt,
      reviewBookId: reviews.bookId,
      reviewText: reviews.comment,
      reviewRating: reviews.rating,
      reviewBookTitle: reviewedBook.title,
    })
    .from(notices)
    .innerJoin(users, eq(users.id, notices.accountId))
    .leftJoin(books, eq(books.id, notices.bookId))
    .leftJoin(reviews, eq(reviews.id, notices.reviewId))
    .leftJoin(reviewedBook, eq(reviewedBook.id, reviews.bookId))
    .where(eq(notices.status, "open"))
    .orderBy(asc(notices.createdAt), asc(notices.id));
}

/** Whether anyone's notice about the book is still open. */
export async function hasOpenNotices(db: Queryable, bookId: number): Promise<boolean> {
  const [open] = await db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.bookId, bookId), eq(notices.status, "open")))
    .limit(1);
  return open !== undefined;
}

export interface NoticeOutcome {
  status: Exclude<NoticeStatus, "open">;
  facts: string;
  decisionId: number | null;
  at: Date;
}

/**
 * Settles the open notices about a book, about an account and all its books and reviews, or about
 * reviews, with one outcome; answers them, for their senders to be told.
 */
export async function closeOpenNotices(tx: Queryable, about: { bookId: number } | { accountId: string } | { reviewIds: number[] }, outcome: NoticeOutcome): Promise<NoticeRow[]> {
  if ("reviewIds" in about) return about.reviewIds.length === 0 ? [] : closeWhere(tx, inArray(notices.reviewId, about.reviewIds), outcome);
  return closeWhere(tx, "bookId" in about ? eq(notices.bookId, about.bookId) : eq(notices.accountId, about.accountId), outcome);
}

export async function closeNotices(tx: Queryable, ids: number[], outcome: NoticeOutcome): Promise<NoticeRow[]> {
  return ids.length === 0 ? [] : closeWhere(tx, inArray(notices.id, ids), outcome);
}

function closeWhere(tx: Queryable, which: SQL, { status, facts, decisionId, at }: NoticeOutcome): Promise<NoticeRow[]> {
  return tx
    .update(notices)
    .set({ status, closingFacts: facts, decisionId, closedAt: at })
    .where(and(eq(notices.status, "open"), which))
    .returning();
}

/** The titles of the books these reviews are of, by review. */
export async function reviewedBookTitlesOf(db: Queryable, reviewIds: number[]): Promise<Map<number, string>> {
  if (reviewIds.length === 0) return new Map();
  const rows = await db
    .select({ id: reviews.id, title: books.title })
    .from(reviews)
    .innerJoin(books, eq(books.id, reviews.bookId))
    .where(inArray(reviews.id, [...new Set(reviewIds)]));
  return new Map(rows.map((row) => [row.id, row.title]));
}

export async function bookTitlesOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: books.id, title: books.title }).from(books).where(inArray(books.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.title]));
}
