import { and, eq, gte, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import {
  ADDRESS_BOOK_BURST,
  BOOK_COUNTED_SPIKE,
  type LoggedDownload,
  SHARED_ADDRESS_ACCOUNTS,
} from "../../shared/suspicious-activity.ts";
import type { Queryable } from "../db/client.ts";
import { books, downloads } from "../db/schema.ts";

/* The admin's reward-farming diagnostics: reads of the download log and titles, never a write. */

/**
 * The downloads of a period that could belong to a burst: those of a (book, address), an address
 * or a book whose whole period already reaches a burst's threshold. Everything else is left in the
 * database, so the sliding windows (shared/suspicious-activity.ts) only ever see the busy few.
 * The period is a range on downloads_time_idx.
 */
export async function listDownloadsOfBusyGroups(db: Queryable, since: Date, until: Date): Promise<LoggedDownload[]> {
  const inPeriod = and(gte(downloads.downloadedAt, since), lte(downloads.downloadedAt, until));
  const withAddress = and(inPeriod, isNotNull(downloads.ipAddress));
  const busyBookAddresses = db
    .select({ bookId: downloads.bookId, ipAddress: downloads.ipAddress })
    .from(downloads)
    .where(withAddress)
    .groupBy(downloads.bookId, downloads.ipAddress)
    .having(sql`count(*) >= ${ADDRESS_BOOK_BURST.downloads}`);
  // A deleted account's downloads each stand for an account of their own, as in the sliding windows.
  const sharedAddresses = db
    .select({ ipAddress: downloads.ipAddress })
    .from(downloads)
    .where(withAddress)
    .groupBy(downloads.ipAddress)
    .having(sql`count(distinct coalesce(${downloads.userId}::text, ${downloads.id}::text)) >= ${SHARED_ADDRESS_ACCOUNTS.accounts}`);
  const spikingBooks = db
    .select({ bookId: downloads.bookId })
    .from(downloads)
    .where(and(inPeriod, eq(downloads.counted, true)))
    .groupBy(downloads.bookId)
    .having(sql`count(*) >= ${BOOK_COUNTED_SPIKE.counted}`);
  return db
    .select({
      id: downloads.id,
      bookId: downloads.bookId,
      userId: downloads.userId,
      ipAddress: downloads.ipAddress,
      counted: downloads.counted,
      downloadedAt: downloads.downloadedAt,
    })
    .from(downloads)
    .where(
      and(
        inPeriod,
        or(
          sql`(${downloads.bookId}, ${downloads.ipAddress}) in ${busyBookAddresses}`,
          inArray(downloads.ipAddress, sharedAddresses),
          inArray(downloads.bookId, spikingBooks),
        ),
      ),
    );
}

/** Titles by book id, deleted books included: their download log is kept (docs/product.md#books). */
export async function readBookTitles(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: books.id, title: books.title }).from(books).where(inArray(books.id, ids));
  return new Map(rows.map((row) => [row.id, row.title]));
}
