import {
  ADMIN_PAGE_SIZE,
  type AdminBooksQuery,
  type AdminOverview,
  type AdminPage,
  type AdminUser,
  type BookDiagnostics,
  FIRST_BOOK_TAKEN,
  type PaymentDiagnostics,
  type PayoutHealth,
  type QueuedPayment,
  type Reconciliation,
  type SuspiciousBurst,
} from "../../shared/admin.ts";
import { formatUnits } from "ethers";
import { diagnoseFirstBookBonus } from "../../shared/rewards.ts";
import { findSuspiciousBursts, suspiciousActivitySince } from "../../shared/suspicious-activity.ts";
import type { PayoutPolicy, RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import { conflict, notFound } from "../http/errors.ts";
import { findFirstBookOf, lockLiveBook, setFirstBook } from "../books/books-repository.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { readPayoutHealth } from "../rewards/payout-health-repository.ts";
import { readHolds } from "../rewards/payment-holds-repository.ts";
import { cancellationOf } from "../rewards/payments-service.ts";
import type { PaymentHold } from "../../shared/wallet.ts";
import { recordOwedRewards } from "../rewards/rewards-ledger-service.ts";
import {
  countAccountsAndBooks,
  countActiveUsers,
  listAccountsPage,
  listBookDiagnosticsPage,
  listLiveBooksOf,
  listOpenPayments,
  sumCompletedPaymentsOf,
  sumSettledPaymentsOf,
} from "./admin-repository.ts";
import { listDownloadsOfBusyGroups, readBookTitles } from "./suspicious-activity-repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The totals; the accounts and books themselves come a page at a time (readAdminUsers, readBookDiagnostics). */
export async function readAdminOverview(db: Db, now: Date, storageQuotaBytes: number): Promise<AdminOverview> {
  const [counts, activeUsers30Days] = await Promise.all([countAccountsAndBooks(db), countActiveUsers(db, new Date(now.getTime() - 30 * DAY_MS))]);
  return { totals: { ...counts, activeUsers30Days }, storageQuotaBytes };
}

const windowOf = (page: number) => ({ offset: (page - 1) * ADMIN_PAGE_SIZE, limit: ADMIN_PAGE_SIZE });

/** A page of accounts with their live books, what each keeps and each book earned (docs/product.md#admin). */
export async function readAdminUsers(db: Db, { q = "", page = 1 }: { q?: string; page?: number }): Promise<AdminPage<AdminUser>> {
  const { rows: accounts, total } = await listAccountsPage(db, q, windowOf(page));
  const liveBooks = await listLiveBooksOf(
    db,
    accounts.map((account) => account.id),
  );
  const earned = await sumCompletedPaymentsOf(
    db,
    liveBooks.map((book) => book.id),
  );
  const earnedByBook = new Map(earned.map((row) => [row.bookId, Number(row.total)]));
  const items = accounts.map((account) => {
    const own = liveBooks.filter((book) => book.authorId === account.id);
    return {
      id: account.id,
      firstName: account.firstName,
      lastName: account.lastName,
      username: account.username,
      booksCount: own.length,
      totalDownloads: account.totalDownloads,
      // The quota's own count (sumLiveFileSizes), from the live books already read.
      storageBytes: own.reduce((bytes, book) => bytes + book.fileSize, 0),
      books: own.map((book) => ({ id: book.id, title: book.title, downloadCount: book.downloadCount, tokensEarned: earnedByBook.get(book.id) ?? 0 })),
    };
  });
  return { items, total, page, pageSize: ADMIN_PAGE_SIZE };
}

/** A page of the books' diagnostics: by default only those that need the admin (docs/product.md#admin). */
export async function readBookDiagnostics(
  db: Db,
  settings: RewardSettings,
  { q = "", show = "attention", page = 1 }: { q?: string; show?: AdminBooksQuery["show"]; page?: number },
): Promise<AdminPage<BookDiagnostics>> {
  const { rows, total } = await listBookDiagnosticsPage(db, { search: q, attentionBefore: show === "attention" ? settings.promoCutoff : null }, windowOf(page));
  const settled = await sumSettledPaymentsOf(
    db,
    rows.map(({ book }) => book.id),
  );
  const items = rows.map(({ book, authorWallet, secondCountedDownloadAt, authorFirstBookId, total: _total, ...author }) => ({
    bookId: book.id,
    bookTitle: book.title,
    authorId: book.authorId,
    authorName: authorDisplayName(author),
    authorEmail: author.authorEmail,
    downloadCount: book.downloadCount,
    paidMilestones: book.paidMilestones,
    ...diagnoseFirstBookBonus({ ...book, secondCountedDownloadAt, authorWallet }, settings.promoCutoff),
    authorFirstBookId,
    moderationState: book.moderationState,
    paidAmount: settled.get(book.id)?.paid ?? "0",
    cancelledAmount: settled.get(book.id)?.cancelled ?? "0",
  }));
  return { items, total, page, pageSize: ADMIN_PAGE_SIZE };
}

type OpenPayment = Awaited<ReturnType<typeof listOpenPayments>>[number];

const presentQueued = ({ payment: row, wallet, bookTitle, author, ...cancelled }: OpenPayment, hold: PaymentHold | undefined): QueuedPayment => ({
  id: row.id,
  bookId: row.bookId,
  bookTitle,
  authorId: row.authorId,
  authorName: authorDisplayName({ authorFirstName: author.firstName, authorLastName: author.lastName, authorEmail: null }) ?? author.username,
  amount: row.amount,
  stage: row.payoutStage,
  status: row.status as QueuedPayment["status"],
  attempts: row.attempts,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt.toISOString(),
  waitingForWallet: row.status === "pending" && !wallet,
  // Only a queued payment is held: one already signed is in flight whatever its book's state (docs/decisions/0090).
  hold: row.status === "pending" && row.payoutStage === "queued" ? (hold ?? null) : null,
  cancellation: cancellationOf({ cancelledByDecisionId: row.cancelledByDecisionId, ...cancelled }),
});

/** Reward-farming bursts in the download log of the last days, newest first (docs/product.md#admin). */
async function readSuspiciousActivity(db: Db, now: Date): Promise<SuspiciousBurst[]> {
  const bursts = findSuspiciousBursts(await listDownloadsOfBusyGroups(db, suspiciousActivitySince(now), now));
  const titles = await readBookTitles(db, [...new Set(bursts.flatMap(({ bookId }) => (bookId === null ? [] : [bookId])))]);
  return bursts.map(({ bookId, ...burst }) => ({ ...burst, book: bookId === null ? null : { id: bookId, title: titles.get(bookId)! } }));
}

/** The sender's last look at the hot wallet, beside the thresholds it pauses at (docs/product.md#hot-wallet-health). */
async function readHealth(db: Db, hotWallet: string, policy: PayoutPolicy): Promise<PayoutHealth | null> {
  const row = await readPayoutHealth(db, hotWallet);
  if (!row) return null;
  return {
    state: row.state,
    since: row.since.toISOString(),
    checkedAt: row.checkedAt.toISOString(),
    hotWallet,
    gasBalance: formatUnits(BigInt(row.gasBalance), 18),
    gasMinimum: formatUnits(policy.minPolWei, 18),
    tokenBalance: formatUnits(BigInt(row.tokenBalance), 18),
    tokenMinimum: formatUnits(policy.minPmeWei, 18),
    finality: { mode: row.finalityMode, lagBlocks: row.finalityLagBlocks, lagSeconds: row.finalityLagSeconds, maxLagSeconds: policy.finalityLagMaxSeconds },
    maxFeeGwei: formatUnits(policy.maxFeeWei, "gwei"),
    feeNeededGwei: row.feeNeeded === null ? null : formatUnits(BigInt(row.feeNeeded), "gwei"),
  };
}

export async function readPaymentDiagnostics(
  db: Db,
  settings: RewardSettings,
  payouts: { hotWallet: string; policy: PayoutPolicy; reconcile: () => Promise<Reconciliation> },
  now: Date,
): Promise<PaymentDiagnostics> {
  const open = await listOpenPayments(db);
  const holds = await readHolds(
    db,
    open.filter(({ payment }) => payment.status === "pending" && payment.payoutStage === "queued").map(({ payment }) => payment.bookId),
  );
  const rows = open.map((row) => presentQueued(row, row.payment.bookId === null ? undefined : holds.get(row.payment.bookId)));
  return {
    reconciliation: await payouts.reconcile(),
    suspiciousActivity: await readSuspiciousActivity(db, now),
    payoutHealth: await readHealth(db, payouts.hotWallet, payouts.policy),
    queue: {
      pending: rows.filter((row) => row.status === "pending" && row.stage === "queued" && row.hold === null),
      held: rows.filter((row) => row.hold !== null),
      inFlight: rows.filter((row) => row.status === "pending" && row.stage !== "queued"),
      failed: rows.filter((row) => row.status === "failed"),
      cancelled: rows.filter((row) => row.status === "cancelled"),
    },
  };
}

const firstBookTaken = (firstBookId?: number) =>
  conflict(
    FIRST_BOOK_TAKEN,
    `This author already has a first book${firstBookId === undefined ? "" : ` (#${firstBookId})`}: the first-book bonus is owed once per author.`,
  );

/**
 * Sets a book's first-book flag; a bonus that becomes due is owed like any other payment. An author
 * has one first book at most (docs/product.md#books): marking another is a 409, whether the check here
 * sees the first one or the database's unique index stops a fix running at the same moment.
 */
export async function fixFirstBookFlag(db: Db, bookId: number, setAsFirstBook: boolean, settings: RewardSettings): Promise<number> {
  try {
    return await db.transaction(async (tx) => {
      const book = await lockLiveBook(tx, bookId);
      if (!book) throw notFound("This book does not exist.");
      if (setAsFirstBook) {
        const firstBook = await findFirstBookOf(tx, book.authorId);
        if (firstBook && firstBook.id !== book.id) throw firstBookTaken(firstBook.id);
      }
      const updated = await setFirstBook(tx, bookId, setAsFirstBook);
      return recordOwedRewards(tx, updated, settings, new Date());
    });
  } catch (error) {
    if (violatedUniqueConstraint(error) === "books_one_first_book_per_author") throw firstBookTaken();
    throw error;
  }
}
