import { type SQL, and, asc, count, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
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

/** Accounts and live books, counted. */
export async function countAccountsAndBooks(db: Queryable): Promise<{ users: number; books: number }> {
  const [[accounts], [liveBooks]] = await Promise.all([
    db.select({ count: count() }).from(users).where(isNull(users.deletedAt)),
    db.select({ count: count() }).from(books).where(isNull(books.deletedAt)),
  ]);
  return { users: accounts!.count, books: liveBooks!.count };
}

export interface PageWindow {
  offset: number;
  limit: number;
}

/** `%words%` for LIKE, lower case and without accents as `plume_unaccent` writes the column, its wildcards taken literally. */
const containing = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** A column's text holds the search, case and accents aside (the search is folded by the same function). */
const holds = (text: SQL, search: string) => sql`plume_unaccent(lower(${text})) like plume_unaccent(${containing(search)})`;

/** A page of the accounts not deleted, oldest first, those whose names, username or e-mail hold `search`; with how many match in all. */
export async function listAccountsPage(db: Queryable, search: string, window: PageWindow): Promise<{ rows: User[]; total: number }> {
  const matches = and(
    isNull(users.deletedAt),
    search ? holds(sql`concat_ws(' ', ${users.username}, ${users.firstName}, ${users.lastName}, ${users.email})`, search) : undefined,
  );
  const rows = await db
    .select({ user: users, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(users)
    .where(matches)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(window.limit)
    .offset(window.offset);
  // Past the last page, no row says how many there are: counted on their own.
  const total = rows[0]?.total ?? (window.offset > 0 ? (await db.select({ count: count() }).from(users).where(matches))[0]!.count : 0);
  return { rows: rows.map((row) => row.user), total };
}

/** The live books of some authors, in upload order. */
export async function listLiveBooksOf(db: Queryable, authorIds: string[]): Promise<Book[]> {
  if (authorIds.length === 0) return [];
  return db
    .select()
    .from(books)
    .where(and(isNull(books.deletedAt), inArray(books.authorId, authorIds)))
    .orderBy(asc(books.id));
}

/** The tokens of completed payments of some books (a decimal string each). */
export async function sumCompletedPaymentsOf(db: Queryable, bookIds: number[]): Promise<Array<{ bookId: number | null; total: string }>> {
  if (bookIds.length === 0) return [];
  return db
    .select({ bookId: payments.bookId, total: sql<string>`sum(${payments.amount})` })
    .from(payments)
    .where(and(eq(payments.status, "completed"), inArray(payments.bookId, bookIds)))
    .groupBy(payments.bookId);
}

/** When a book's second counted download happened: the first-book bonus's moment (docs/product.md#rewards). */
const secondCountedDownloadAt = sql<Date | null>`(
  select ${downloads.downloadedAt} from ${downloads}
  where ${downloads.bookId} = ${books.id} and ${downloads.counted}
  order by ${downloads.downloadedAt}, ${downloads.id} offset 1 limit 1)`;

// Deleted books included: a deleted first book still had its bonus (docs/product.md#books).
const authorFirstBookId = sql<number | null>`(
  select first.id from ${books} as first where first.author_id = ${books.authorId} and first.first_book)`;

/**
 * What needs the admin in the diagnostics (docs/product.md#admin): a book moderation restricts, or a
 * first-book bonus the offer owed and that was not paid — the book reached its second counted download
 * before the offer ended, was its author's first and has no bonus, or its author has no first book at all.
 * Books past the offer, with no download, or paid, are as they should be.
 */
const needsAttention = (promoCutoff: Date) => sql`(
  ${books.moderationState} is not null
  or (not ${books.firstBookBonusPaid} and ${books.firstDownloadDate} < ${promoCutoff} and (
    (${books.firstBook} and ${secondCountedDownloadAt} < ${promoCutoff})
    or ${authorFirstBookId} is null)))`;

export interface BookDiagnosticsFilter {
  search: string;
  /** Only the books that need the admin, judged against the first-book offer's end. */
  attentionBefore: Date | null;
}

/** A page of the live books with their author and the date of their second counted download, in upload order; with how many match in all. */
export async function listBookDiagnosticsPage(db: Queryable, filter: BookDiagnosticsFilter, window: PageWindow) {
  const matches = and(
    isNull(books.deletedAt),
    filter.search
      ? holds(sql`concat_ws(' ', ${books.title}, ${users.username}, ${users.firstName}, ${users.lastName}, ${users.email})`, filter.search)
      : undefined,
    filter.attentionBefore ? needsAttention(filter.attentionBefore) : undefined,
  );
  // The page's ids first, with how many match: the per-book subqueries below then run for its 25
  // books alone, not for every match the count and the offset go through.
  const page = db
    .select({ id: books.id, total: sql<number>`count(*) over ()`.as("total") })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(matches)
    .orderBy(asc(books.id))
    .limit(window.limit)
    .offset(window.offset)
    .as("page");
  const rows = await db
    .select({
      book: books,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      authorEmail: users.email,
      authorWallet: users.walletAddress,
      authorFirstBookId: authorFirstBookId.mapWith((value) => (value === null ? null : Number(value))),
      secondCountedDownloadAt: secondCountedDownloadAt.mapWith((value) => (value ? new Date(value) : null)),
      total: sql<number>`${page.total}`.mapWith(Number),
    })
    .from(page)
    .innerJoin(books, eq(books.id, page.id))
    .innerJoin(users, eq(users.id, books.authorId))
    .orderBy(asc(books.id));
  const total =
    rows[0]?.total ??
    (window.offset > 0 ? (await db.select({ count: count() }).from(books).innerJoin(users, eq(users.id, books.authorId)).where(matches))[0]!.count : 0);
  return { rows, total };
}

/**
 * Payments not completed (pending, failed or cancelled), oldest first, with their author's wallet and,
 * for a cancelled one, the time and facts of the removal that cancelled it.
 */
export async function listOpenPayments(
  db: Queryable,
): Promise<
  Array<{
    payment: Payment;
    wallet: string | null;
    bookTitle: string | null;
    author: { firstName: string | null; lastName: string | null; username: string };
    cancelledAt: Date | null;
    cancellationFacts: string | null;
  }>
> {
  return db
    .select({
      payment: payments,
      wallet: users.walletAddress,
      bookTitle: books.title,
      author: { firstName: users.firstName, lastName: users.lastName, username: users.username },
      cancelledAt: moderationDecisions.createdAt,
      cancellationFacts: moderationDecisions.facts,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .leftJoin(books, eq(books.id, payments.bookId))
    .leftJoin(moderationDecisions, eq(moderationDecisions.id, payments.cancelledByDecisionId))
    .where(or(eq(payments.status, "pending"), eq(payments.status, "failed"), eq(payments.status, "cancelled")))
    .orderBy(asc(payments.id));
}

/** PME completed and PME cancelled per book of some books (decimal strings): what a removed book had paid, and what its removal stopped. */
export async function sumSettledPaymentsOf(db: Queryable, bookIds: number[]): Promise<Map<number, { paid: string; cancelled: string }>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .select({
      bookId: payments.bookId,
      paid: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'completed'), 0)::text`,
      cancelled: sql<string>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'cancelled'), 0)::text`,
    })
    .from(payments)
    .where(and(inArray(payments.bookId, bookIds), or(eq(payments.status, "completed"), eq(payments.status, "cancelled"))))
    .groupBy(payments.bookId);
  return new Map(rows.flatMap((row) => (row.bookId === null ? [] : [[row.bookId, { paid: row.paid, cancelled: row.cancelled }] as const])));
}
