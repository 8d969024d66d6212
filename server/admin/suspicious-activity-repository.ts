import { and, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import {
  ADDRESS_BOOK_BURST,
  BOOK_COUNTED_SPIKE,
  DELETED_ACCOUNTS_COUNTED,
  type LoggedDownload,
  SHARED_ADDRESS_ACCOUNTS,
} from "../../shared/suspicious-activity.ts";
import type { Queryable } from "../db/client.ts";
import { books, downloads, users } from "../db/schema.ts";

/* The admin's reward-farming diagnostics: reads of the download log and titles, never a write. */

/** The address a download is watched by (shared/suspicious-activity.ts): its hash, else the address in clear. */
const watchedAddress = sql<string | null>`coalesce(${downloads.addressHash}, ${downloads.ipAddress})`;
/** The account was deleted since: its row closed, or gone. */
const accountDeleted = sql<boolean>`(${downloads.userId} is null or exists (select 1 from ${users} where ${users.id} = ${downloads.userId} and ${users.deletedAt} is not null))`;

/**
 * The downloads of a period that could belong to a burst: those of a (book, address), an address
 * or a book whose whole period already reaches a burst's threshold. Everything else is left in the
 * database, so the sliding windows (shared/suspicious-activity.ts) only ever see the busy few.
 * The period is a range on downloads_time_idx.
 */
export async function listDownloadsOfBusyGroups(db: Queryable, since: Date, until: Date): Promise<LoggedDownload[]> {
  const inPeriod = and(gte(downloads.downloadedAt, since), lte(downloads.downloadedAt, until));
  const withAddress = and(inPeriod, sql`${watchedAddress} is not null`);
  const busyBookAddresses = db
    .select({ bookId: downloads.bookId, address: watchedAddress })
    .from(downloads)
    .where(withAddress)
    .groupBy(downloads.bookId, watchedAddress)
    .having(sql`count(*) >= ${ADDRESS_BOOK_BURST.downloads}`);
  // A deleted account's downloads each stand for an account of their own, as in the sliding windows.
  const sharedAddresses = db
    .select({ address: watchedAddress })
    .from(downloads)
    .where(withAddress)
    .groupBy(watchedAddress)
    .having(sql`count(distinct coalesce(${downloads.userId}::text, ${downloads.id}::text)) >= ${SHARED_ADDRESS_ACCOUNTS.accounts}`);
  const leftAddresses = db
    .select({ address: watchedAddress })
    .from(downloads)
    .where(and(withAddress, eq(downloads.counted, true), accountDeleted))
    .groupBy(watchedAddress)
    .having(sql`count(*) >= ${DELETED_ACCOUNTS_COUNTED.counted}`);
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
      addressHash: downloads.addressHash,
      accountDeleted,
      counted: downloads.counted,
      downloadedAt: downloads.downloadedAt,
    })
    .from(downloads)
    .where(
      and(
        inPeriod,
        or(
          sql`(${downloads.bookId}, ${watchedAddress}) in ${busyBookAddresses}`,
          sql`${watchedAddress} in ${sharedAddresses}`,
          sql`${watchedAddress} in ${leftAddresses}`,
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
