import { and, asc, eq, gte, isNotNull, lt, or, sql } from "drizzle-orm";
import { FIRST_BOOK_BONUS_DOWNLOADS } from "../../shared/rewards.ts";
import type { Queryable } from "../db/client.ts";
import { type NotCountedReason, books, downloads } from "../db/schema.ts";

/** Any earlier download, counted or not (docs/product.md#counting-downloads): a reader once refused by the address cap never counts later. */
export async function hasDownloadedBefore(tx: Queryable, bookId: number, readerId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: downloads.id })
    .from(downloads)
    .where(and(eq(downloads.bookId, bookId), eq(downloads.userId, readerId)))
    .limit(1);
  return Boolean(row);
}

/**
 * What a reader took of a book (docs/product.md#editions): the newest edition among their downloads that
 * name one, and when they last took it by a download from before editions were named (null if none).
 */
export async function takenEditionsOf(db: Queryable, bookId: number, readerId: string): Promise<{ newest: number | null; lastUnnamedAt: Date | null }> {
  const [row] = await db
    .select({
      newest: sql<number | null>`max(${downloads.edition})`,
      lastUnnamedAt: sql<string | Date | null>`max(${downloads.downloadedAt}) filter (where ${downloads.edition} is null)`,
    })
    .from(downloads)
    .where(and(eq(downloads.bookId, bookId), eq(downloads.userId, readerId)));
  const at = row?.lastUnnamedAt ?? null;
  return { newest: row?.newest ?? null, lastUnnamedAt: at === null ? null : new Date(at) };
}

/**
 * Counted downloads of a book from one address since `since`: by the address in clear, or by its
 * hash, which is all a deleted reader's downloads keep of it (docs/decisions/0049). Either matches
 * the same row, so an account deleted while this runs changes nothing; rows logged before the
 * hashes existed, or under an earlier key, are found by the address in clear while their reader lives.
 */
export async function countedFromAddressSince(tx: Queryable, bookId: number, address: { ipAddress: string; addressHash: string }, since: Date): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(downloads)
    .where(
      and(
        eq(downloads.bookId, bookId),
        or(eq(downloads.ipAddress, address.ipAddress), eq(downloads.addressHash, address.addressHash)),
        eq(downloads.counted, true),
        gte(downloads.downloadedAt, since),
      ),
    );
  return row!.count;
}

export async function insertDownload(tx: Queryable, values: typeof downloads.$inferInsert): Promise<void> {
  await tx.insert(downloads).values(values);
}

/** When the book's second counted download happened (the promotion is judged at that moment). */
export async function secondCountedDownloadAt(tx: Queryable, bookId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ at: downloads.downloadedAt })
    .from(downloads)
    .where(and(eq(downloads.bookId, bookId), eq(downloads.counted, true)))
    .orderBy(asc(downloads.downloadedAt), asc(downloads.id))
    .offset(FIRST_BOOK_BONUS_DOWNLOADS - 1)
    .limit(1);
  return row?.at ?? null;
}

/** Counted downloads of an author's books (deleted ones included: history is kept) per month, from `since`. */
export async function countAuthorDownloadsByMonth(
  db: Queryable,
  authorId: string,
  since: Date,
): Promise<Array<{ month: string; downloads: number }>> {
  const month = sql<string>`to_char(date_trunc('month', ${downloads.downloadedAt} at time zone 'UTC'), 'YYYY-MM')`;
  return db
    .select({ month, downloads: sql<number>`count(*)::int` })
    .from(downloads)
    .innerJoin(books, eq(books.id, downloads.bookId))
    .where(and(eq(books.authorId, authorId), eq(downloads.counted, true), sql`${downloads.downloadedAt} >= ${since}`))
    .groupBy(month);
}

/** An author's counted downloads, from the books' own counts (deleted books included). */
export async function sumAuthorDownloads(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${books.downloadCount}), 0)::int` })
    .from(books)
    .where(eq(books.authorId, authorId));
  return row!.total;
}

/** Every counted download of the author's books, oldest first: the author's export (who read is the readers' own data, so not here). */
export async function listCountedDownloadsOfAuthor(db: Queryable, authorId: string): Promise<Array<{ bookId: number; bookTitle: string; downloadedAt: Date; channel: string }>> {
  return db
    .select({ bookId: downloads.bookId, bookTitle: books.title, downloadedAt: downloads.downloadedAt, channel: downloads.channel })
    .from(downloads)
    .innerJoin(books, eq(books.id, downloads.bookId))
    .where(and(eq(books.authorId, authorId), eq(downloads.counted, true)))
    .orderBy(asc(downloads.downloadedAt), asc(downloads.id));
}

/** The books a reader took, oldest first: the reader's export. */
export async function listDownloadsByReader(
  db: Queryable,
  readerId: string,
): Promise<Array<{ bookId: number; bookTitle: string; downloadedAt: Date; channel: string; edition: number | null }>> {
  return db
    .select({ bookId: downloads.bookId, bookTitle: books.title, downloadedAt: downloads.downloadedAt, channel: downloads.channel, edition: downloads.edition })
    .from(downloads)
    .innerJoin(books, eq(books.id, downloads.bookId))
    .where(eq(downloads.userId, readerId))
    .orderBy(asc(downloads.downloadedAt), asc(downloads.id));
}

/**
 * A deleted reader's downloads keep explaining the counts they fed, without the addresses they came
 * from in clear; the hashes stay until the sweep forgets them (docs/decisions/0049).
 */
export async function forgetReaderAddresses(tx: Queryable, readerId: string): Promise<void> {
  await tx.update(downloads).set({ ipAddress: null }).where(eq(downloads.userId, readerId));
}

/** Past the days anything reads them (server/downloads/address-hashes.ts), the hashes go, through downloads_address_hash_time_idx. */
export async function forgetAddressHashesBefore(db: Queryable, before: Date): Promise<void> {
  await db
    .update(downloads)
    .set({ addressHash: null })
    .where(and(isNotNull(downloads.addressHash), lt(downloads.downloadedAt, before)));
}

export interface BookMonthTally {
  bookId: number;
  title: string;
  deleted: boolean;
  month: string;
  counted: boolean;
  reason: NotCountedReason | null;
  downloads: number;
}

/**
 * Every logged download of an author's books from `since` (deleted books included), grouped by book,
 * UTC month, counted and reason. Reads each book's rows through downloads_book_ip_time_idx (book first).
 */
export async function tallyAuthorDownloadsByBookMonth(db: Queryable, authorId: string, since: Date): Promise<BookMonthTally[]> {
  const month = sql<string>`to_char(date_trunc('month', ${downloads.downloadedAt} at time zone 'UTC'), 'YYYY-MM')`;
  return db
    .select({
      bookId: books.id,
      title: books.title,
      deleted: sql<boolean>`${books.deletedAt} is not null`,
      month,
      counted: downloads.counted,
      reason: downloads.notCountedReason,
      downloads: sql<number>`count(*)::int`,
    })
    .from(downloads)
    .innerJoin(books, eq(books.id, downloads.bookId))
    .where(and(eq(books.authorId, authorId), gte(downloads.downloadedAt, since)))
    .groupBy(books.id, month, downloads.counted, downloads.notCountedReason);
}
