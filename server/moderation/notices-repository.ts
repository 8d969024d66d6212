import { type SQL, and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { books, notices, users } from "../db/schema.ts";

export type NoticeRow = typeof notices.$inferSelect;

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
      accountFirstName: users.firstName,
      accountLastName: users.lastName,
      accountUsername: users.username,
      accountSuspendedAt: users.suspendedAt,
    })
    .from(notices)
    .innerJoin(users, eq(users.id, notices.accountId))
    .leftJoin(books, eq(books.id, notices.bookId))
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
  status: "actioned" | "dismissed";
  facts: string;
  decisionId: number | null;
  at: Date;
}

/**
 * Settles the open notices about a book, or about an account and all its books, with one outcome;
 * answers them, for their senders to be told.
 */
export async function closeOpenNotices(tx: Queryable, about: { bookId: number } | { accountId: string }, outcome: NoticeOutcome): Promise<NoticeRow[]> {
  const subject = "bookId" in about ? eq(notices.bookId, about.bookId) : eq(notices.accountId, about.accountId);
  return closeWhere(tx, subject, outcome);
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

export async function bookTitlesOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: books.id, title: books.title }).from(books).where(inArray(books.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.title]));
}
