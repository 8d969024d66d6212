import { and, eq, gte, sql } from "drizzle-orm";
import type { RewardSettings } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import { type Book, books, downloads, users } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { recordOwedRewards } from "../rewards/rewards-ledger.ts";
import { lockLiveBook } from "../books/books-repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface DownloadRequest {
  bookId: number;
  readerId: string;
  /** The address it is counted against (security/client-address.ts); without one it is logged, never counted. */
  ipAddress: string | undefined;
  at: Date;
  countedPerIpPerBookPerDay: number;
  rewards: RewardSettings;
}

/** Any earlier download, counted or not (docs/product.md#counting-downloads): a reader once refused by the address cap never counts later. */
async function hasDownloadedBefore(tx: Queryable, bookId: number, readerId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: downloads.id })
    .from(downloads)
    .where(and(eq(downloads.bookId, bookId), eq(downloads.userId, readerId)))
    .limit(1);
  return Boolean(row);
}

async function countedFromAddressSince(tx: Queryable, bookId: number, ipAddress: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(downloads)
    .where(
      and(
        eq(downloads.bookId, bookId),
        eq(downloads.ipAddress, ipAddress),
        eq(downloads.counted, true),
        gte(downloads.downloadedAt, since),
      ),
    );
  return row!.count;
}

/**
 * Logs a download and decides whether it counts (docs/product.md#counting-downloads): a signed-in reader who is not the
 * author, their first download of this book, and fewer than the per-IP cap counted from their
 * address for this book in 24 hours. The book row stays locked for the whole transaction, so
 * simultaneous downloads are decided one after another: 40 readers at once count exactly 40.
 */
export async function recordDownload(db: Db, request: DownloadRequest): Promise<{ book: Book; paymentsOwed: number }> {
  return db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, request.bookId);
    if (!book) throw notFound("This book does not exist.");
    const { readerId, ipAddress, at } = request;
    const counted =
      book.isPublished &&
      readerId !== book.authorId &&
      !(await hasDownloadedBefore(tx, book.id, readerId)) &&
      ipAddress !== undefined &&
      (await countedFromAddressSince(tx, book.id, ipAddress, new Date(at.getTime() - DAY_MS))) < request.countedPerIpPerBookPerDay;

    await tx.insert(downloads).values({ bookId: book.id, userId: readerId, ipAddress, counted, downloadedAt: at });
    if (!counted) return { book, paymentsOwed: 0 };

    const [updated] = await tx
      .update(books)
      .set({ downloadCount: sql`${books.downloadCount} + 1`, firstDownloadDate: book.firstDownloadDate ?? at })
      .where(eq(books.id, book.id))
      .returning();
    await tx
      .update(users)
      .set({ totalDownloads: sql`${users.totalDownloads} + 1` })
      .where(eq(users.id, book.authorId));
    // The payments this download makes owed are written in this same transaction (outbox).
    const paymentsOwed = await recordOwedRewards(tx, updated!, request.rewards, at);
    return { book: updated!, paymentsOwed };
  });
}
