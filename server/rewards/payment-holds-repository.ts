import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { type PaymentHoldingCategory, paymentHoldingCategories } from "../../shared/notices.ts";
import type { PaymentHold } from "../../shared/wallet.ts";
import type { Queryable } from "../db/client.ts";
import { books, moderationDecisions, notices, payments } from "../db/schema.ts";

/**
 * Held payments (docs/decisions/0090): a payment whose book moderation restricts (hidden, suspended
 * with its account, or removed), or whose book has an open notice of a category that holds payments,
 * is never signed. Derived at every read from the book and its notices, never stored, so that a hold
 * ends the moment the book is restored or its notice dismissed, with nothing to set back. Each
 * subquery is one probe: the books' primary key and notices_book_idx.
 */
export const heldByItsBook = sql`(exists (select 1 from ${books} held_book where held_book.id = ${payments.bookId} and held_book.moderation_state is not null)
  or exists (select 1 from ${notices} holding_notice where holding_notice.book_id = ${payments.bookId} and holding_notice.status = 'open'
    and holding_notice.category in (${sql.join(
      paymentHoldingCategories.map((category) => sql`${category}`),
      sql`, `,
    )})))`;

export const notHeldByItsBook = sql`not ${heldByItsBook}`;

/**
 * Why each of these books holds its payments, for the books that do: the decision in force when
 * moderation restricts the book (its facts and time), else the oldest open notice that holds payments.
 */
export async function readHolds(db: Queryable, bookIds: Array<number | null>): Promise<Map<number, PaymentHold>> {
  const ids = [...new Set(bookIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const [restricted, reported] = await Promise.all([
    db
      .select({ bookId: books.id, decisionId: moderationDecisions.id, action: moderationDecisions.action, facts: moderationDecisions.facts, at: moderationDecisions.createdAt })
      .from(books)
      .innerJoin(moderationDecisions, eq(moderationDecisions.id, books.moderationDecisionId))
      .where(and(inArray(books.id, ids), isNotNull(books.moderationState))),
    db
      .select({ bookId: notices.bookId, category: notices.category, at: notices.createdAt })
      .from(notices)
      .where(and(inArray(notices.bookId, ids), eq(notices.status, "open"), inArray(notices.category, [...paymentHoldingCategories])))
      .orderBy(asc(notices.createdAt), asc(notices.id)),
  ]);
  const holds = new Map<number, PaymentHold>();
  for (const notice of reported) {
    if (notice.bookId === null || holds.has(notice.bookId)) continue;
    // Read with the categories that hold payments only.
    holds.set(notice.bookId, { since: notice.at.toISOString(), because: { kind: "notice", category: notice.category as PaymentHoldingCategory } });
  }
  // The decision in force outranks a notice: it is what the author can read and contest.
  for (const book of restricted) {
    if (book.action !== "hide" && book.action !== "remove" && book.action !== "suspend") continue;
    holds.set(book.bookId, { since: book.at.toISOString(), because: { kind: "decision", decisionId: book.decisionId, action: book.action, facts: book.facts } });
  }
  return holds;
}

/**
 * A removal cancels its book's payments not yet signed, naming the removal's decision (docs/decisions/0090).
 * A payment already signed is in flight and cannot be called back: it is left to the payout worker,
 * which completes or fails it as any other. Answers the PME cancelled (a decimal string, "0" for none).
 */
export async function cancelUnsentPaymentsOfBook(tx: Queryable, bookId: number, decisionId: number): Promise<string> {
  const rows = await tx
    .update(payments)
    .set({ status: "cancelled", cancelledByDecisionId: decisionId })
    .where(and(eq(payments.bookId, bookId), eq(payments.status, "pending"), eq(payments.payoutStage, "queued"), isNull(payments.payoutTransactionId)))
    .returning({ amount: payments.amount });
  return sumAmounts(rows);
}

/** Amounts have two decimals: summed in hundredths, exactly; "0.00" for none. */
function sumAmounts(rows: Array<{ amount: string }>): string {
  const hundredths = rows.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0);
  return (hundredths / 100).toFixed(2);
}

/**
 * Payments sent back to the queue (their nonce taken, their chain gone) whose book was removed while
 * they were in flight: they are cancelled now, under the removal in force, as they would have been
 * had they still been queued at the removal.
 */
export async function cancelRequeuedOfRemovedBooks(tx: Queryable, paymentIds: number[]): Promise<void> {
  if (paymentIds.length === 0) return;
  await tx
    .update(payments)
    .set({ status: "cancelled", cancelledByDecisionId: books.moderationDecisionId })
    .from(books)
    .where(
      and(
        inArray(payments.id, paymentIds),
        eq(books.id, payments.bookId),
        inArray(books.moderationState, ["removed-terms", "removed-legal"]),
        eq(payments.status, "pending"),
        eq(payments.payoutStage, "queued"),
      ),
    );
}

/**
 * A restore that lifts a removal sends back to the queue what that removal cancelled: the removal was
 * found wrong, on review or on appeal, and the author is owed what the book earned (docs/decisions/0090).
 */
export async function reinstatePaymentsCancelledBy(tx: Queryable, removalDecisionId: number): Promise<string> {
  const rows = await tx
    .update(payments)
    .set({ status: "pending", cancelledByDecisionId: null })
    .where(eq(payments.cancelledByDecisionId, removalDecisionId))
    .returning({ amount: payments.amount });
  return sumAmounts(rows);
}
