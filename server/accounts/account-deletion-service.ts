import type { AccountDeletionPreview } from "../../shared/account-settings.ts";
import { deleteAccountTokensOf } from "./account-tokens-repository.ts";
import { deleteAccountSessions } from "./sessions-repository.ts";
import { confirmCurrentPassword } from "./settings-service.ts";
import { closeAccount, findOpenAccount, lockOpenAccount } from "./users-repository.ts";
import { removeBookFiles } from "../books/book-files.ts";
import { deleteSeriesOf } from "../series/series-repository.ts";
import { deleteBookTagsOfAuthor } from "../series/tags-repository.ts";
import { countLiveBooksOf, lockBooksOf, refreshRating, withdrawBooksOf } from "../books/books-repository.ts";
import { listOlderEditionFiles } from "../books/editions-repository.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { forgetReaderAddresses } from "../downloads/downloads-repository.ts";
import { notFound } from "../http/errors.ts";
import { deleteKeysOf } from "../opds/e-reader-keys-repository.ts";
import { deleteRatingsBy } from "../ratings/ratings-repository.ts";
import { deleteFollowsOf } from "../follows/follows-repository.ts";
import { deleteHelpfulVotesBy, reviewIdsBy } from "../ratings/reviews-repository.ts";
import { type WriterDeletion, settleNoticesAboutDeletedReviews } from "../ratings/reviews-service.ts";
import { deleteShelfEntriesOf } from "../shelves/shelves-repository.ts";
import { deleteReadingPositionsOf } from "../reading/reading-positions-repository.ts";
import { forfeitQueuedPayments, summarizeOwed } from "../rewards/payments-repository.ts";
import type { FileStore } from "../storage/file-store.ts";

/** Why a forfeited payment failed, as the admin's diagnostics show it. */
export const FORFEITED_REASON = "The author deleted their account before connecting a wallet.";

/** What deleting would do, told before the person confirms (docs/product.md#settings). */
export async function previewAccountDeletion(db: Db, userId: string): Promise<AccountDeletionPreview> {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  const [books, owed] = await Promise.all([countLiveBooksOf(db, userId), summarizeOwed(db, userId)]);
  return { books, owedPayments: owed.count, owedAmount: owed.amount, walletAddress: user.walletAddress };
}

/**
 * Deletes the account (docs/product.md#settings, docs/decisions/0036): its books are withdrawn and
 * their files removed, its ratings and reviews (docs/product.md#reviews), helpful votes, reading places, e-reader keys,
 * follows (both ways), links and sessions deleted, the
 * addresses its downloads came from forgotten (their keyed hashes stay a week, so the per-address cap
 * still counts them: docs/decisions/0049), and what remains is a row without name, e-mail or
 * password, so the payments and counts that point at it stay explained. Payments still owed go to
 * the proven wallet; without one they are forfeited. All of it commits together or not at all; the
 * files go once it has (a crash in between leaves files no live book names, which the start-up
 * sweep removes). Answers the notices about its reviews it settled, for their senders to be told
 * that the writer deleted them (docs/decisions/0111).
 */
export async function deleteAccount({ db, store }: { db: Db; store: FileStore }, user: User, currentPassword: string, now: Date): Promise<WriterDeletion> {
  await confirmCurrentPassword(user, currentPassword);
  const { files, deletion } = await db.transaction(async (tx) => {
    // Held until commit: an upload by this author waits, then finds the account closed. Read again
    // under the lock: the wallet may have changed since this request's session was loaded.
    const account = await lockOpenAccount(tx, user.id);
    if (!account) throw notFound("There is no such account.");
    // Its reviews go with its ratings (the notices about them settled first), and its helpful votes with the counts they added.
    const deletion = await settleNoticesAboutDeletedReviews(tx, await reviewIdsBy(tx, user.id), now);
    await deleteHelpfulVotesBy(tx, user.id);
    const rated = [...new Set(await deleteRatingsBy(tx, user.id))];
    await lockBooksOf(tx, user.id, rated);
    const withdrawn = await withdrawBooksOf(tx, user.id, now);
    // Their older editions' files go with them (docs/product.md#editions).
    const olderEditions = await listOlderEditionFiles(tx, withdrawn.map((book) => book.id));
    // Its series go, and its withdrawn books' tags (docs/product.md#series-and-tags).
    await deleteBookTagsOfAuthor(tx, user.id);
    await deleteSeriesOf(tx, user.id);
    for (const bookId of rated) await refreshRating(tx, bookId);
    await deleteReadingPositionsOf(tx, user.id);
    await deleteShelfEntriesOf(tx, user.id);
    await deleteKeysOf(tx, user.id);
    await deleteFollowsOf(tx, user.id);
    await deleteAccountTokensOf(tx, user.id);
    await forgetReaderAddresses(tx, user.id);
    const owed = await summarizeOwed(tx, user.id);
    if (!account.walletAddress) await forfeitQueuedPayments(tx, user.id, FORFEITED_REASON);
    await closeAccount(tx, user.id, owed.count > 0 ? account.walletAddress : null, now);
    await deleteAccountSessions(tx, user.id, undefined);
    const files = withdrawn.map((book) => ({ book, older: olderEditions.filter((edition) => edition.bookId === book.id).map((edition) => edition.filePath) }));
    return { files, deletion };
  });
  await Promise.all(files.map(({ book, older }) => removeBookFiles(store, book, older)));
  return deletion;
}
