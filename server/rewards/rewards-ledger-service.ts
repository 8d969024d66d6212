import { parseUnits } from "ethers";
import { type BookRewardState, FIRST_BOOK_BONUS_DOWNLOADS, rewardsOwed } from "../../shared/rewards.ts";
import type { RewardSettings } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import type { Book } from "../db/schema.ts";
import { updateBook } from "../books/books-repository.ts";
import { secondCountedDownloadAt } from "../downloads/downloads-repository.ts";
import { insertOwedPayments } from "./payments-repository.ts";

/**
 * Inserts the payment rows a book is owed (the outbox of docs/product.md#rewards) and records them on the
 * book, inside the caller's transaction, which must hold the book row locked. Each row's
 * idempotency key is unique in the database, so even a code path that ran twice could not pay twice.
 */
export async function recordOwedRewards(tx: Queryable, book: Book, settings: RewardSettings, at: Date): Promise<number> {
  const bonusPossible = book.firstBook && !book.firstBookBonusPaid && book.downloadCount >= FIRST_BOOK_BONUS_DOWNLOADS;
  const state: BookRewardState = {
    bookId: book.id,
    countedDownloads: book.downloadCount,
    paidMilestones: book.paidMilestones,
    firstBook: book.firstBook,
    firstBookBonusPaid: book.firstBookBonusPaid,
    secondCountedDownloadAt: bonusPossible ? await secondCountedDownloadAt(tx, book.id) : null,
  };
  const owed = rewardsOwed(state, settings.promoCutoff);
  if (owed.length === 0) return 0;

  const tokens = settings.tokensPerMilestone;
  await insertOwedPayments(
    tx,
    owed.map((reward) => ({
      bookId: book.id,
      authorId: book.authorId,
      idempotencyKey: reward.idempotencyKey,
      kind: reward.kind,
      milestone: reward.milestone ?? null,
      downloadThreshold: reward.downloadThreshold,
      amount: tokens.toFixed(2),
      tokensSent: parseUnits(String(tokens), 18).toString(),
      currency: "PME",
      status: "pending" as const,
      metadata: { countedDownloads: book.downloadCount },
      triggeredAt: at,
      nextAttemptAt: new Date(at.getTime() + settings.payoutHoldMs),
    })),
  );

  const milestones = owed.flatMap((reward) => (reward.milestone ? [reward.milestone] : []));
  await updateBook(tx, book.id, {
    paidMilestones: Math.max(book.paidMilestones, ...milestones),
    firstBookBonusPaid: book.firstBookBonusPaid || owed.some((reward) => reward.kind === "first-book-bonus"),
  });
  return owed.length;
}
