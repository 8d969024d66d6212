import { asc, eq, gte, isNull, or, sql } from "drizzle-orm";
import type {
  AdminOverview,
  BookDiagnostics,
  PaymentDiagnostics,
  QueuedPayment,
  Reconciliation,
  SuspiciousBurst,
} from "../../shared/admin.ts";
import { diagnoseFirstBookBonus } from "../../shared/rewards.ts";
import { findSuspiciousBursts, suspiciousActivitySince } from "../../shared/suspicious-activity.ts";
import type { RewardSettings } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import { books, downloads, payments, reviews, users } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { lockLiveBook } from "../books/books-repository.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { recordOwedRewards } from "../rewards/rewards-ledger.ts";
import { listDownloadsOfBusyGroups, readBookTitles } from "./suspicious-activity-repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Users who signed in, downloaded, uploaded or rated in the last 30 days (docs/product.md#accounts). */
async function countActiveUsers(db: Queryable, since: Date): Promise<number> {
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

export async function readAdminOverview(db: Db, now: Date): Promise<AdminOverview> {
  const [accounts, liveBooks, earned, activeUsers30Days] = await Promise.all([
    db.select().from(users).orderBy(asc(users.createdAt)),
    db.select().from(books).where(isNull(books.deletedAt)).orderBy(asc(books.id)),
    db
      .select({ bookId: payments.bookId, total: sql<string>`sum(${payments.amount})` })
      .from(payments)
      .where(eq(payments.status, "completed"))
      .groupBy(payments.bookId),
    countActiveUsers(db, new Date(now.getTime() - 30 * DAY_MS)),
  ]);
  const earnedByBook = new Map(earned.map((row) => [row.bookId, Number(row.total)]));
  return {
    totals: { users: accounts.length, books: liveBooks.length, activeUsers30Days },
    users: accounts.map((account) => {
      const own = liveBooks.filter((book) => book.authorId === account.id);
      return {
        id: account.id,
        firstName: account.firstName,
        lastName: account.lastName,
        username: account.username,
        booksCount: own.length,
        totalDownloads: account.totalDownloads,
        books: own.map((book) => ({
          id: book.id,
          title: book.title,
          downloadCount: book.downloadCount,
          tokensEarned: earnedByBook.get(book.id) ?? 0,
        })),
      };
    }),
  };
}

const presentQueued = (row: typeof payments.$inferSelect & { wallet: string | null }): QueuedPayment => ({
  id: row.id,
  bookId: row.bookId,
  authorId: row.authorId,
  amount: row.amount,
  stage: row.payoutStage,
  status: row.status as "pending" | "failed",
  attempts: row.attempts,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt.toISOString(),
  waitingForWallet: row.status === "pending" && !row.wallet,
});

/** Reward-farming bursts in the download log of the last days, newest first (issue 6). */
async function readSuspiciousActivity(db: Db, now: Date): Promise<SuspiciousBurst[]> {
  const bursts = findSuspiciousBursts(await listDownloadsOfBusyGroups(db, suspiciousActivitySince(now), now));
  const titles = await readBookTitles(db, [...new Set(bursts.flatMap(({ bookId }) => (bookId === null ? [] : [bookId])))]);
  return bursts.map(({ bookId, ...burst }) => ({ ...burst, book: bookId === null ? null : { id: bookId, title: titles.get(bookId)! } }));
}

export async function readPaymentDiagnostics(
  db: Db,
  settings: RewardSettings,
  reconcile: () => Promise<Reconciliation>,
  now: Date,
): Promise<PaymentDiagnostics> {
  const liveBooks = await db
    .select({
      book: books,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      authorEmail: users.email,
      authorWallet: users.walletAddress,
      secondCountedDownloadAt: sql<Date | null>`(
        select ${downloads.downloadedAt} from ${downloads}
        where ${downloads.bookId} = ${books.id} and ${downloads.counted}
        order by ${downloads.downloadedAt}, ${downloads.id} offset 1 limit 1)`.mapWith((value) => (value ? new Date(value) : null)),
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(isNull(books.deletedAt))
    .orderBy(asc(books.id));
  const bookDiagnostics: BookDiagnostics[] = liveBooks.map(({ book, authorWallet, secondCountedDownloadAt, ...author }) => ({
    bookId: book.id,
    bookTitle: book.title,
    authorId: book.authorId,
    authorName: authorDisplayName(author),
    authorEmail: author.authorEmail,
    downloadCount: book.downloadCount,
    paidMilestones: book.paidMilestones,
    ...diagnoseFirstBookBonus({ ...book, secondCountedDownloadAt, authorWallet }, settings.promoCutoff),
  }));

  const open = await db
    .select({ payment: payments, wallet: users.walletAddress })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .where(or(eq(payments.status, "pending"), eq(payments.status, "failed")))
    .orderBy(asc(payments.id));
  const rows = open.map(({ payment, wallet }) => presentQueued({ ...payment, wallet }));
  return {
    books: bookDiagnostics,
    reconciliation: await reconcile(),
    suspiciousActivity: await readSuspiciousActivity(db, now),
    queue: {
      pending: rows.filter((row) => row.status === "pending" && row.stage === "queued"),
      inFlight: rows.filter((row) => row.status === "pending" && row.stage !== "queued"),
      failed: rows.filter((row) => row.status === "failed"),
    },
  };
}

/** Sets a book's first-book flag; a bonus that becomes due is owed like any other payment. */
export async function fixFirstBookFlag(db: Db, bookId: number, setAsFirstBook: boolean, settings: RewardSettings): Promise<number> {
  return db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, bookId);
    if (!book) throw notFound("This book does not exist.");
    const [updated] = await tx.update(books).set({ firstBook: setAsFirstBook }).where(eq(books.id, bookId)).returning();
    return recordOwedRewards(tx, updated!, settings, new Date());
  });
}
