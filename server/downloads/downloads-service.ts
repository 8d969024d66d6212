import type { RewardSettings } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { Book, NotCountedReason } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { recordOwedRewards } from "../rewards/rewards-ledger-service.ts";
import { incrementTotalDownloads } from "../accounts/users-repository.ts";
import { incrementDownloadCount, lockLiveBook } from "../books/books-repository.ts";
import { downloadsRecorded } from "../system/metrics.ts";
import { type AddressHasher, COUNTING_WINDOW_MS } from "./address-hashes.ts";
import { countedFromAddressSince, hasDownloadedBefore, insertDownload } from "./downloads-repository.ts";

/** How the reader took the book; every channel counts by the same rule (docs/product.md#counting-downloads). */
export type DownloadChannel = "download" | "read" | "opds" | "send";

export interface DownloadRequest {
  bookId: number;
  readerId: string;
  /** The address it is counted against (security/client-address.ts); without one it is logged, never counted. */
  ipAddress: string | undefined;
  at: Date;
  channel: DownloadChannel;
  countedPerIpPerBookPerDay: number;
  /** The address's keyed hash, logged beside it: what outlives the reader's account (docs/decisions/0049). */
  hashAddress: AddressHasher;
  rewards: RewardSettings;
  /** The admin opens a reported book to review it (docs/product.md#moderation): never counted, as for a restricted book. */
  reviewing?: boolean;
  /** An older edition of the book's file asked for (docs/product.md#editions); the current one when absent. It never changes the count. */
  edition?: number;
}

/** The first rule a download fails, in the rule's order, or null when it counts (docs/product.md#counting-downloads). */
async function whyNotCounted(
  tx: Queryable,
  book: Book,
  request: DownloadRequest,
  address: { ipAddress: string; addressHash: string } | undefined,
): Promise<NotCountedReason | null> {
  const { readerId, at, countedPerIpPerBookPerDay } = request;
  if (!book.isPublished) return "unpublished";
  // Only the admin takes a restricted book, to review it, and a reported one it reviews pays nothing either (docs/product.md#moderation).
  if (book.moderationState !== null || request.reviewing) return "moderation-review";
  if (readerId === book.authorId) return "own-book";
  if (await hasDownloadedBefore(tx, book.id, readerId)) return "repeat-reader";
  if (address === undefined) return "no-address";
  if ((await countedFromAddressSince(tx, book.id, address, new Date(at.getTime() - COUNTING_WINDOW_MS))) >= countedPerIpPerBookPerDay) return "address-cap";
  return null;
}

/**
 * Logs a download and decides whether it counts (docs/product.md#counting-downloads): a signed-in reader who is not the
 * author, their first download of this book, and fewer than the per-IP cap counted from their
 * address for this book in 24 hours. The book row stays locked for the whole transaction, so
 * simultaneous downloads are decided one after another: 40 readers at once count exactly 40. The
 * address's counted downloads include those of readers who deleted their account since, found by the
 * address's hash (docs/decisions/0049).
 */
export async function recordDownload(db: Db, request: DownloadRequest): Promise<{ book: Book; paymentsOwed: number }> {
  const { notCountedReason, ...recorded } = await db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, request.bookId);
    if (!book) throw notFound("This book does not exist.");
    const { readerId, ipAddress, at, channel } = request;
    const address = ipAddress === undefined ? undefined : { ipAddress, addressHash: request.hashAddress(ipAddress) };
    const notCountedReason = await whyNotCounted(tx, book, request, address);
    const counted = notCountedReason === null;

    const edition = request.edition ?? book.edition;
    await insertDownload(tx, { bookId: book.id, userId: readerId, ...address, counted, notCountedReason, channel, downloadedAt: at, edition });
    if (!counted) return { book, paymentsOwed: 0, notCountedReason };

    const updated = await incrementDownloadCount(tx, book, at);
    await incrementTotalDownloads(tx, book.authorId);
    // The payments this download makes owed are written in this same transaction (outbox).
    const paymentsOwed = await recordOwedRewards(tx, updated, request.rewards, at);
    return { book: updated, paymentsOwed, notCountedReason };
  });
  // Counted once committed: a rolled-back download was never recorded.
  downloadsRecorded.inc({ counted: String(notCountedReason === null), reason: notCountedReason ?? "none" });
  return recorded;
}
