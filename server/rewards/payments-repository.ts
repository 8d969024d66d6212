import { TransactionRollbackError, and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { PaymentView } from "../../shared/wallet.ts";
import type { Db, Queryable } from "../db/client.ts";
import { type Payment, type PayoutTransaction, books, moderationDecisions, payments, payoutTransactions, users } from "../db/schema.ts";
import { valuesList } from "../db/values-list.ts";
import type { ChainIdentity } from "../chain/pme-chain.ts";
import { cancelRequeuedOfRemovedBooks, notHeldByItsBook } from "./payment-holds-repository.ts";

/**
 * Where a payment is on its way out, and whether its author has a wallet: what its timeline is told
 * from; for a cancelled payment, the removal that cancelled it (its time and facts).
 */
export type PaymentProgress = Pick<Payment, "sentAt" | "payoutStage" | "nextAttemptAt" | "lastError" | "cancelledByDecisionId"> & {
  authorHasWallet: boolean;
  cancelledAt: Date | null;
  cancellationFacts: string | null;
};

/** An author's payments, newest first, with the title of the book each one rewards and each one's progress. */
export async function listAuthorPaymentsWithProgress(db: Queryable, authorId: string): Promise<Array<PaymentView & { progress: PaymentProgress }>> {
  const rows = await db
    .select({
      id: payments.id,
      amount: payments.amount,
      status: payments.status,
      triggeredAt: payments.triggeredAt,
      completedAt: payments.completedAt,
      transactionHash: payments.transactionHash,
      bookId: payments.bookId,
      bookTitle: books.title,
      kind: payments.kind,
      milestone: payments.milestone,
      progress: {
        sentAt: payments.sentAt,
        payoutStage: payments.payoutStage,
        nextAttemptAt: payments.nextAttemptAt,
        lastError: payments.lastError,
        authorHasWallet: sql<boolean>`${users.walletAddress} is not null`,
        cancelledByDecisionId: payments.cancelledByDecisionId,
        cancelledAt: moderationDecisions.createdAt,
        cancellationFacts: moderationDecisions.facts,
      },
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .leftJoin(books, eq(books.id, payments.bookId))
    .leftJoin(moderationDecisions, eq(moderationDecisions.id, payments.cancelledByDecisionId))
    .where(eq(payments.authorId, authorId))
    .orderBy(desc(payments.triggeredAt), desc(payments.id));
  return rows.map((row) => ({
    ...row,
    triggeredAt: row.triggeredAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  }));
}

/** An author's payments, newest first, as the data export lists them. */
export async function listAuthorPayments(db: Queryable, authorId: string): Promise<PaymentView[]> {
  return (await listAuthorPaymentsWithProgress(db, authorId)).map(({ progress: _progress, ...payment }) => payment);
}

/** Owed payments (the outbox of docs/product.md#rewards); a key already stored is skipped, never paid twice. */
export async function insertOwedPayments(tx: Queryable, rows: Array<typeof payments.$inferInsert>): Promise<void> {
  await tx.insert(payments).values(rows).onConflictDoNothing({ target: payments.idempotencyKey });
}

/** The ledger's completed payments, on every chain: the reconciliation tells the current chain's apart. */
export async function listCompletedPayments(db: Queryable): Promise<Payment[]> {
  return db.select().from(payments).where(eq(payments.status, "completed"));
}

/**
 * The payout worker's reads and writes. Every write that moves a payment forward is a
 * compare-and-set on the state it expects, so two senders could never both move the same payment.
 * A payout transaction pays one payment or a batch of them (docs/decisions/0039): its payments move together.
 */

const isPending = eq(payments.status, "pending");
const transactionOnChain = (identity: ChainIdentity) =>
  and(
    eq(payoutTransactions.chainId, identity.chainId),
    eq(payoutTransactions.genesisHash, identity.genesisHash),
    eq(payoutTransactions.tokenAddress, identity.tokenAddress),
  );
/** The payments a transaction pays that are still pending. */
const pendingIn = (transactionId: number) => and(eq(payments.payoutTransactionId, transactionId), isPending);
/** The transaction is still the version the caller read: no other sender moved it since. */
const stillSignedAs = (transaction: Pick<PayoutTransaction, "id" | "signedTransaction">) =>
  sql`exists (select 1 from ${payoutTransactions} where ${payoutTransactions.id} = ${transaction.id} and ${payoutTransactions.signedTransaction} = ${transaction.signedTransaction})`;

const CLEARED_TRANSACTION = {
  payoutStage: "queued" as const,
  payoutTransactionId: null,
  nonce: null,
  sentAt: null,
  chainId: null,
  genesisHash: null,
  tokenAddress: null,
};

/**
 * Signed payments whose transaction was meant for another chain (a local chain that restarted):
 * it can never land there, so they go back to the queue. Completed payments are never touched.
 */
export async function requeueForeignChainPayments(db: Db, identity: ChainIdentity): Promise<number> {
  const foreign = db.select({ id: payoutTransactions.id }).from(payoutTransactions).where(sql`not (${transactionOnChain(identity)})`);
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(payments)
      .set({ ...CLEARED_TRANSACTION, lastError: "Signed for a chain that is gone; queued again for the current chain." })
      .where(and(isPending, inArray(payments.payoutTransactionId, foreign)))
      .returning({ id: payments.id });
    // Back in the queue, a payment of a book removed meanwhile is no longer in flight: the removal cancels it.
    await cancelRequeuedOfRemovedBooks(tx, rows.map((row) => row.id));
    return rows.length;
  });
}

/** One of the payments a transaction pays, in the order its batch pays them. */
export interface PaidPayment {
  id: number;
  wallet: string;
  tokensSent: string;
  payoutStage: Payment["payoutStage"];
}

export type InFlightTransaction = PayoutTransaction & { payments: PaidPayment[] };

/** The transactions on this chain with payments still pending, by nonce; each with its payments by id (the batch's order). */
export async function listInFlight(db: Queryable, identity: ChainIdentity): Promise<InFlightTransaction[]> {
  const rows = await db
    .select({ transaction: payoutTransactions, id: payments.id, wallet: payments.walletAddress, tokensSent: payments.tokensSent, payoutStage: payments.payoutStage })
    .from(payoutTransactions)
    .innerJoin(payments, eq(payments.payoutTransactionId, payoutTransactions.id))
    .where(and(isPending, transactionOnChain(identity)))
    .orderBy(asc(payoutTransactions.nonce), asc(payoutTransactions.id), asc(payments.id));
  const byId = new Map<number, InFlightTransaction>();
  for (const { transaction, ...payment } of rows) {
    const entry = byId.get(transaction.id) ?? { ...transaction, payments: [] };
    entry.payments.push({ ...payment, wallet: payment.wallet!, tokensSent: payment.tokensSent! });
    byId.set(transaction.id, entry);
  }
  return [...byId.values()];
}

export async function highestStoredNonce(db: Queryable, identity: ChainIdentity): Promise<number | null> {
  const [row] = await db
    .select({ nonce: sql<number | null>`max(${payoutTransactions.nonce})` })
    .from(payoutTransactions)
    .innerJoin(payments, eq(payments.payoutTransactionId, payoutTransactions.id))
    .where(and(isPending, transactionOnChain(identity)));
  return row?.nonce ?? null;
}

/**
 * Whether the payout worker has anything to do: a pending payment already signed (in flight, on this
 * chain or one that is gone), or one queued, due, with a wallet to pay and not held by its book
 * (docs/decisions/0090). One row at most, read through the partial index of pending payments: an
 * empty queue answers from an empty index; a held payment costs two index probes and makes no work.
 */
export async function hasPayoutWork(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .where(and(isPending, or(ne(payments.payoutStage, "queued"), and(lte(payments.nextAttemptAt, now), isNotNull(users.walletAddress), notHeldByItsBook))))
    .limit(1);
  return rows.length > 0;
}

export interface DuePayment {
  id: number;
  tokensSent: string;
  wallet: string;
}

/** Queued payments whose wait is over, whose author has a wallet and that their book does not hold (docs/decisions/0090), oldest first. */
export async function listDue(db: Queryable, limit: number, now: Date): Promise<DuePayment[]> {
  const rows = await db
    .select({ id: payments.id, tokensSent: payments.tokensSent, wallet: users.walletAddress })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .where(and(isPending, eq(payments.payoutStage, "queued"), lte(payments.nextAttemptAt, now), isNotNull(users.walletAddress), notHeldByItsBook))
    .orderBy(asc(payments.nextAttemptAt), asc(payments.id))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, tokensSent: row.tokensSent!, wallet: row.wallet! }));
}

export interface SignedBatch {
  nonce: number;
  raw: string;
  hash: string;
  /** The payments it pays, in the batch's order, each to the wallet it was signed for. */
  payments: Array<{ paymentId: number; wallet: string }>;
}

/**
 * Records a signed transaction and the payments it pays before it is sent, all or none: a batch
 * stored without some of its payments would pay them all the same. Null, with nothing stored, if
 * any of the payments was no longer queued, or its book came to hold it since it was listed (a hide,
 * a notice, a removal's cancellation: docs/decisions/0090); else the transaction's id. From here on
 * a payment is in flight: a later hold or removal cannot call it back.
 */
export async function storeSignedBatch(db: Db, batch: SignedBatch, identity: ChainIdentity): Promise<number | null> {
  const signed = valuesList(
    "signed",
    [["id", "integer"], ["wallet", "text"]],
    batch.payments.map((entry) => [entry.paymentId, entry.wallet]),
  );
  try {
    return await db.transaction(async (tx) => {
      const [transaction] = await tx
        .insert(payoutTransactions)
        .values({ nonce: batch.nonce, signedTransaction: batch.raw, transactionHashes: [batch.hash], ...identity })
        .returning({ id: payoutTransactions.id });
      const rows = await tx
        .update(payments)
        .set({
          payoutStage: "signed",
          payoutTransactionId: transaction!.id,
          nonce: batch.nonce,
          walletAddress: sql`signed.wallet`,
          authorWallet: sql`signed.wallet`,
          ...identity,
          attempts: sql`${payments.attempts} + 1`,
        })
        .from(signed)
        .where(and(sql`${payments.id} = signed.id`, isPending, eq(payments.payoutStage, "queued"), isNull(payments.payoutTransactionId), notHeldByItsBook))
        .returning({ id: payments.id });
      if (rows.length !== batch.payments.length) tx.rollback();
      return transaction!.id;
    });
  } catch (error) {
    if (error instanceof TransactionRollbackError) return null;
    throw error;
  }
}

/** A replacement (same nonce and payments, higher fees) is stored before it is sent; its hash joins the history. */
export async function storeReplacement(db: Db, transaction: PayoutTransaction, raw: string, hash: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(payoutTransactions)
      .set({ signedTransaction: raw, transactionHashes: [...transaction.transactionHashes, hash] })
      .where(and(eq(payoutTransactions.id, transaction.id), eq(payoutTransactions.signedTransaction, transaction.signedTransaction)))
      .returning({ id: payoutTransactions.id });
    if (rows.length === 0) return false;
    await tx
      .update(payments)
      .set({ payoutStage: "signed", attempts: sql`${payments.attempts} + 1` })
      .where(pendingIn(transaction.id));
    return true;
  });
}

export async function markBroadcast(db: Db, transactionId: number, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(payoutTransactions).set({ broadcastAt: at }).where(eq(payoutTransactions.id, transactionId));
    await tx
      .update(payments)
      .set({ payoutStage: "broadcast", sentAt: sql`coalesce(${payments.sentAt}, ${at.toISOString()}::timestamptz)`, lastError: null })
      .where(and(pendingIn(transactionId), ne(payments.payoutStage, "confirming")));
  });
}

export async function markConfirming(db: Db, transactionId: number, hash: string): Promise<void> {
  await db.update(payments).set({ payoutStage: "confirming", transactionHash: hash }).where(pendingIn(transactionId));
}

/** Completes mined payments, each with its transfer (hash and log index); returns what each one paid its author. */
export async function markCompleted(
  tx: Queryable,
  mined: Array<{ paymentId: number; hash: string; logIndex: number }>,
  at: Date,
): Promise<Array<{ id: number; authorId: string; amount: string }>> {
  const receipts = valuesList("mined", [["id", "integer"], ["hash", "text"], ["log_index", "integer"]], mined.map((entry) => [entry.paymentId, entry.hash, entry.logIndex]));
  return tx
    .update(payments)
    .set({ status: "completed", transactionHash: sql`mined.hash`, logIndex: sql`mined.log_index`, completedAt: at, paidAt: at, lastError: null })
    .from(receipts)
    .where(and(sql`${payments.id} = mined.id`, isPending))
    .returning({ id: payments.id, authorId: payments.authorId, amount: payments.amount });
}

/** A transaction that reverted paid none of its payments: they fail together, with the reason. */
export async function failTransaction(db: Db, transactionId: number, hash: string, reason: string): Promise<void> {
  await db.update(payments).set({ status: "failed", transactionHash: hash, lastError: reason }).where(pendingIn(transactionId));
}

/** Payments that can never be paid as they are (no address that can receive PME): they fail before any transaction. */
export async function failUnpayable(db: Db, paymentIds: number[], reason: string): Promise<void> {
  if (paymentIds.length === 0) return;
  await db
    .update(payments)
    .set({ status: "failed", lastError: reason })
    .where(and(inArray(payments.id, paymentIds), isPending, eq(payments.payoutStage, "queued")));
}

/** The nonce went to another transaction: this one can never land, so its payments are signed anew. */
export async function requeueTakenNonce(db: Db, transaction: PayoutTransaction): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(payments)
      .set({ ...CLEARED_TRANSACTION, lastError: `Nonce ${transaction.nonce} was used by another transaction; queued again.` })
      .where(and(pendingIn(transaction.id), stillSignedAs(transaction)))
      .returning({ id: payments.id });
    await cancelRequeuedOfRemovedBooks(tx, rows.map((row) => row.id));
  });
}

/** A payment that could not go out now waits, longer after each attempt. */
export async function postpone(db: Db, paymentIds: number[], reason: string, until: Date): Promise<void> {
  if (paymentIds.length === 0) return;
  await db
    .update(payments)
    .set({ lastError: reason, nextAttemptAt: until })
    .where(and(inArray(payments.id, paymentIds), isPending));
}

/** What is still owed to the author: pending payments, however far on their way. */
export async function summarizeOwed(db: Queryable, authorId: string): Promise<{ count: number; amount: string }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${payments.amount}), 0)::text` })
    .from(payments)
    .where(and(eq(payments.authorId, authorId), eq(payments.status, "pending")));
  return row!;
}

/**
 * Owed payments that can never be sent: their author deleted the account without a wallet, and a
 * queued payment is only ever signed for the author's wallet (docs/product.md#settings). Signed ones
 * are untouched: they already have their address.
 */
export async function forfeitQueuedPayments(tx: Queryable, authorId: string, reason: string): Promise<void> {
  await tx
    .update(payments)
    .set({ status: "failed", lastError: reason })
    .where(and(eq(payments.authorId, authorId), eq(payments.status, "pending"), eq(payments.payoutStage, "queued")));
}

/** A completed payment as its author's notice tells it (server/rewards/payment-notices-service.ts). */
export interface PaymentNotice {
  authorId: string;
  email: string;
  language: string;
  name: string;
  amount: string;
  kind: (typeof payments.$inferSelect)["kind"];
  /** The counted downloads that earned it. */
  downloadThreshold: number | null;
  bookTitle: string | null;
  wallet: string | null;
  transactionHash: string | null;
}

/**
 * The completed payments among these whose authors want a notice and can get one: mail on, an
 * address proven (an unproven one may be a stranger's, who would learn the earnings), account open.
 */
export async function listPaymentNotices(db: Queryable, paymentIds: number[]): Promise<PaymentNotice[]> {
  if (paymentIds.length === 0) return [];
  const rows = await db
    .select({
      authorId: payments.authorId,
      email: users.email,
      language: users.language,
      firstName: users.firstName,
      username: users.username,
      amount: payments.amount,
      kind: payments.kind,
      downloadThreshold: payments.downloadThreshold,
      bookTitle: books.title,
      wallet: payments.walletAddress,
      transactionHash: payments.transactionHash,
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .leftJoin(books, eq(books.id, payments.bookId))
    .where(
      and(
        inArray(payments.id, paymentIds),
        eq(payments.status, "completed"),
        eq(users.notifyPaymentCompleted, true),
        isNotNull(users.emailVerifiedAt),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(asc(payments.id));
  return rows.map(({ firstName, username, email, ...row }) => ({ ...row, email: email!, name: firstName || username }));
}

/**
 * The payout SLA: payments completed from `since`, and the 50th and 99th percentiles of their seconds
 * from owed to completed (continuous, so a handful of payments still gives a figure between two).
 */
export async function summarizeCompletionTimes(db: Queryable, since: Date): Promise<{ completed: number; p50Seconds: number | null; p99Seconds: number | null }> {
  const seconds = sql`extract(epoch from ${payments.completedAt} - ${payments.triggeredAt})::float8`;
  const [row] = await db
    .select({
      completed: sql<number>`count(*)::int`,
      p50Seconds: sql<number | null>`percentile_cont(0.5) within group (order by ${seconds})`.mapWith(Number),
      p99Seconds: sql<number | null>`percentile_cont(0.99) within group (order by ${seconds})`.mapWith(Number),
    })
    .from(payments)
    .where(and(eq(payments.status, "completed"), sql`${payments.completedAt} >= ${since}`));
  return { completed: row!.completed, p50Seconds: row!.completed === 0 ? null : row!.p50Seconds, p99Seconds: row!.completed === 0 ? null : row!.p99Seconds };
}

/** How many payments there are of each status: one grouped count, for the metrics. */
export async function countPaymentsByStatus(db: Queryable): Promise<{ status: Payment["status"]; count: number }[]> {
  return db
    .select({ status: payments.status, count: sql<number>`count(*)::int` })
    .from(payments)
    .groupBy(payments.status);
}

/**
 * When the oldest payment still owed became owed, or null when none is. A payment its book holds is
 * left out (docs/decisions/0090): it waits for a review, not for the payouts, and would otherwise keep
 * the SLA's figure and its alert up for as long as the review lasts.
 */
export async function oldestOwedAt(db: Queryable): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`min(${payments.triggeredAt})`.mapWith(payments.triggeredAt) })
    .from(payments)
    .where(and(isPending, or(ne(payments.payoutStage, "queued"), notHeldByItsBook)));
  return row?.at ?? null;
}
