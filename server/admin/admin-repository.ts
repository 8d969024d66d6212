import { asc, eq, gte, isNull, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { type Book, type Payment, type User, books, downloads, moderationDecisions, payments, reviews, users } from "../db/schema.ts";

/*
 * The admin's overview and diagnostics: reads across tables, never a write (each table's writes are
 * in its own repository).
 */

/** Users who signed in, downloaded, uploaded or rated in the last 30 days (docs/product.md#accounts). */
export async function countActiveUsers(db: Queryable, since: Date): Promise<number> {
  const active = db
    .select({ id: users.id })
    .from(users)
    .where(gte(users.lastSignInAt, since))
    .union(db.select({ id: sql<string>`${downloads.userId}` }).from(downloads).where(gte(downloads.downloadedAt, since)))
    .union(db.select({ id: books.authorId }).from(books).where(gte(books.createdAt, since)))
    .union(db.select({ id: reviews.userId }).from(reviews).where(gte(reviews.createdAt, since)))
    .as("active");
  const [row] = await db.select({ count: sql<number>`count(${active.id})::int` }).from(active);
  return row!.count;
}

/** Every account not deleted, oldest first. */
export async function listAccounts(db: Queryable): Promise<User[]> {
  return db.select().from(users).where(isNull(users.deletedAt)).orderBy(asc(users.createdAt));
}

/** Books that have not been deleted (published or not), in upload order. */
export async function listLiveBooks(db: Queryable): Promise<Book[]> {
  return db.select().from(books).where(isNull(books.deletedAt)).orderBy(asc(books.id));
}

/** The tokens of completed payments per book (a decimal string each). */
export async function sumCompletedPaymentsByBook(db: Queryable): Promise<Array<{ bookId: number | null; total: string }>> {
  return db
    .select({ bookId: payments.bookId, total: sql<string>`sum(${payments.amount})` })
    .from(payments)
    .where(eq(payments.status, "completed"))
    .groupBy(payments.bookId);
}

/** Live books with their author and the date of their second counted download (the first-book bonus's moment). */
export async function listBookDiagnosticsRows(db: Queryable) {
  return db
    .select({
      book: books,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      authorEmail: users.email,
      authorWallet: users.walletAddress,
      // Deleted books included: a deleted first book still had its bonus (docs/product.md#books).
      authorFirstBookId: sql<number | null>`(
        select first.id from ${books} as first where first.author_id = ${books.authorId} and first.first_book)`.mapWith((value) =>
        value === null ? null : Number(value),
      ),
      secondCountedDownloadAt: sql<Date | null>`(
        select ${downloads.downloadedAt} from ${downloads}
        where ${downloads.bookId} = ${books.id} and ${downloads.counted}
        order by ${downloads.downloadedAt}, ${downloads.id} offset 1 limit 1)`.mapWith((value) => (value ? new Date(value) : null)),
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(isNull(books.deletedAt))
    .orderBy(asc(books.id));
}

/**
 * Payments not completed (pending, failed or cancelled), oldest first, with their author's wallet and,
 * for a cancelled one, the time and facts of the removal that cancelled it.
 */
export async function listOpenPayments(
  db: Queryable,
): Promise<Array<{ payment: Payment; wallet: string | null; cancelledAt: Date | null; cancellationFacts: string | null }>> {
  return db
    .select({ payment: payments, wallet: users.walletAddress, cancelledAt: moderationDecisions.createdAt, cancellationFacts: moderationDecisions.facts })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .leftJoin(moderationDecisions, eq(moderationDecisions.id, payments.cancelledByDecisionId))
    .where(or(eq(payments.status, "pending"), eq(payments.status, "failed"), eq(payments.status, "cancelled")))
    .orderBy(asc(payments.id));
}

/** PME completed and PME cancelled per book (decimal strings): what a removed book had paid, and what its removal stopped. */
export async function sumSettledPaymentsByBook(db: Queryable): Promise<Map<number, { paid: string; cancelled: string }>> {
  const rows = await db
    .select({
      bookId: payments.bookId,
      paid: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'completed'), 0)::text`,
      cancelled: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'cancelled'), 0)::text`,
    })
    .from(payments)
    .where(or(eq(payments.status, "completed"), eq(payments.status, "cancelled")))
    .groupBy(payments.bookId);
  return new Map(rows.flatMap((row) => (row.bookId === null ? [] : [[row.bookId, { paid: row.paid, cancelled: row.cancelled }] as const])));
}
