import type { AccountDeletionPreview } from "../../shared/account-settings.ts";
import { deleteAccountTokensOf } from "./account-tokens-repository.ts";
import { deleteAccountSessions } from "./sessions-repository.ts";
import { confirmCurrentPassword } from "./settings-service.ts";
import { closeAccount, findOpenAccount, lockOpenAccount } from "./users-repository.ts";
import { removeBookFiles } from "../books/book-files.ts";
import { countLiveBooksOf, lockBooksOf, refreshRating, withdrawBooksOf } from "../books/books-repository.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { forgetReaderAddresses } from "../downloads/downloads-repository.ts";
import { notFound } from "../http/errors.ts";
import { deleteKeysOf } from "../opds/e-reader-keys-repository.ts";
import { deleteRatingsBy } from "../ratings/ratings-repository.ts";
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
 * their files removed, its ratings, reading places, e-reader keys, links and sessions deleted, the
 * addresses its downloads came from forgotten (their keyed hashes stay a week, so the per-address cap
 * still counts them: docs/decisions/0049), and what remains is a row without name, e-mail or
 * password, so the payments and counts that point at it stay explained. Payments still owed go to
 * the proven wallet; without one they are forfeited. All of it commits together or not at all; the
 * files go once it has (a crash in between leaves files no live book names, which the start-up
 * sweep removes).
 */
export async function deleteAccount({ db, store }: { db: Db; store: FileStore }, user: User, currentPassword: string, now: Date): Promise<void> {
  await confirmCurrentPassword(user, currentPassword);
  const files = await db.transaction(async (tx) => {
    // Held until commit: an upload by this author waits, then finds the account closed. Read again
    // under the lock: the wallet may have changed since this request's session was loaded.
    const account = await lockOpenAccount(tx, user.id);
    if (!account) throw notFound("There is no such account.");
    const rated = [...new Set(await deleteRatingsBy(tx, user.id))];
    await lockBooksOf(tx, user.id, rated);
    const withdrawn = await withdrawBooksOf(tx, user.id, now);
    for (const bookId of rated) await refreshRating(tx, bookId);
    await deleteReadingPositionsOf(tx, user.id);
    await deleteKeysOf(tx, user.id);
    await deleteAccountTokensOf(tx, user.id);
    await forgetReaderAddresses(tx, user.id);
    const owed = await summarizeOwed(tx, user.id);
    if (!account.walletAddress) await forfeitQueuedPayments(tx, user.id, FORFEITED_REASON);
    await closeAccount(tx, user.id, owed.count > 0 ? account.walletAddress : null, now);
    await deleteAccountSessions(tx, user.id, undefined);
    return withdrawn;
  });
  await Promise.all(files.map((file) => removeBookFiles(store, file)));
}
