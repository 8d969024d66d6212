import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { type SQL, TransactionRollbackError, and, asc, eq, inArray, isNotNull, lte, ne, or, sql } from "drizzle-orm";
import type { Db, Queryable } from "../db/client.ts";
import { isProcessRunning } from "../system/processes.ts";
import { type Payment, payments, payoutLeases, users } from "../db/schema.ts";
import type { ChainIdentity } from "../chain/pme-chain.ts";

/**
 * The payout worker's reads and writes. Every write that moves a payment forward is a
 * compare-and-set on the state it expects, so two senders could never both move the same payment.
 */

const isPending = eq(payments.status, "pending");
const onChain = (identity: ChainIdentity) =>
  and(
    eq(payments.chainId, identity.chainId),
    eq(payments.genesisHash, identity.genesisHash),
    eq(payments.tokenAddress, identity.tokenAddress),
  );

/** Hostnames are cut so that a holder name always fits its column. */
const HOST = hostname().slice(0, 50);

/** A new sender's lease holder name: its host and process id, then a unique part. */
export function newSenderLeaseHolder(): string {
  return `${HOST}:${process.pid}:${randomUUID()}`;
}

/**
 * A holder that was a process of this host and is no longer running (a server killed or crashed):
 * its lease need not be waited out. A pid taken by another process since (this one included)
 * only makes us wait for the lease to run out, as before.
 */
function isDeadLocalHolder(holder: string): boolean {
  const [host, pid] = holder.split(":");
  return host === HOST && /^\d+$/.test(pid ?? "") && !isProcessRunning(Number(pid));
}

/**
 * Takes or renews the sender lease of a hot wallet; false while another live process holds it.
 * A lease left by a dead process of this host is taken over at once, so payouts go on right
 * after a restart instead of once the lease has run out.
 */
export async function holdSenderLease(db: Db, wallet: string, holder: string, ttlMs: number): Promise<boolean> {
  const expiresAt = new Date(Date.now() + ttlMs);
  const [current] = await db.select({ holder: payoutLeases.holder }).from(payoutLeases).where(eq(payoutLeases.wallet, wallet));
  const abandoned = current && current.holder !== holder && isDeadLocalHolder(current.holder) ? current.holder : null;
  const rows = await db
    .insert(payoutLeases)
    .values({ wallet, holder, expiresAt })
    .onConflictDoUpdate({
      target: payoutLeases.wallet,
      set: { holder, expiresAt },
      setWhere: or(
        eq(payoutLeases.holder, holder),
        lte(payoutLeases.expiresAt, sql`now()`),
        ...(abandoned ? [eq(payoutLeases.holder, abandoned)] : []),
      ),
    })
    .returning({ holder: payoutLeases.holder });
  return rows[0]?.holder === holder;
}

export async function releaseSenderLease(db: Db, wallet: string, holder: string): Promise<void> {
  await db.delete(payoutLeases).where(and(eq(payoutLeases.wallet, wallet), eq(payoutLeases.holder, holder)));
}

/**
 * Signed payments whose transaction was meant for another chain (a local chain that restarted):
 * it can never land there, so they go back to the queue. Completed payments are never touched.
 */
export async function requeueForeignChainPayments(db: Db, identity: ChainIdentity): Promise<number> {
  const rows = await db
    .update(payments)
    .set({ ...CLEARED_TRANSACTION, lastError: "Signed for a chain that is gone; queued again for the current chain." })
    .where(and(isPending, isNotNull(payments.signedTransaction), sql`not (${onChain(identity)})`))
    .returning({ id: payments.id });
  return rows.length;
}

const CLEARED_TRANSACTION = {
  payoutStage: "queued" as const,
  nonce: null,
  signedTransaction: null,
  transactionHashes: [],
  broadcastAt: null,
  chainId: null,
  genesisHash: null,
  tokenAddress: null,
};

export async function listInFlight(db: Queryable, identity: ChainIdentity): Promise<Payment[]> {
  return db
    .select()
    .from(payments)
    .where(and(isPending, isNotNull(payments.signedTransaction), onChain(identity)))
    .orderBy(asc(payments.nonce));
}

export async function highestStoredNonce(db: Queryable, identity: ChainIdentity): Promise<number | null> {
  const [row] = await db
    .select({ nonce: sql<number | null>`max(${payments.nonce})` })
    .from(payments)
    .where(and(isPending, isNotNull(payments.signedTransaction), onChain(identity)));
  return row?.nonce ?? null;
}

export interface DuePayment {
  id: number;
  tokensSent: string;
  wallet: string;
}

/** Queued payments whose hold is over and whose author has a wallet, oldest first. */
export async function listDue(db: Queryable, limit: number, now: Date): Promise<DuePayment[]> {
  const rows = await db
    .select({ id: payments.id, tokensSent: payments.tokensSent, wallet: users.walletAddress })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.authorId))
    .where(and(isPending, eq(payments.payoutStage, "queued"), lte(payments.nextAttemptAt, now), isNotNull(users.walletAddress)))
    .orderBy(asc(payments.nextAttemptAt), asc(payments.id))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, tokensSent: row.tokensSent!, wallet: row.wallet! }));
}

export interface SignedPayment {
  paymentId: number;
  nonce: number;
  raw: string;
  hash: string;
  wallet: string;
}

/** Rows as a VALUES list of typed parameters: `(values ($1::integer, $2::text), …) as alias(id, hash)`. */
function valuesList(alias: string, columns: Array<[name: string, type: string]>, rows: unknown[][]): SQL {
  const typed = rows.map((row) => sql`(${sql.join(row.map((value, index) => sql`${value}::${sql.raw(columns[index]![1])}`), sql`, `)})`);
  return sql`(values ${sql.join(typed, sql`, `)}) as ${sql.raw(alias)}(${sql.raw(columns.map(([name]) => name).join(", "))})`;
}

/**
 * Records a batch of signed transactions before any of them is sent, all or none: their nonces follow
 * one another, and some stored without the others would leave a gap that no later transaction passes.
 * False, with nothing stored, if any of the payments was no longer queued.
 */
export async function storeSignedBatch(db: Db, batch: SignedPayment[], identity: ChainIdentity): Promise<boolean> {
  const signed = valuesList(
    "signed",
    [["id", "integer"], ["nonce", "integer"], ["raw", "text"], ["hash", "text"], ["wallet", "text"]],
    batch.map((entry) => [entry.paymentId, entry.nonce, entry.raw, entry.hash, entry.wallet]),
  );
  try {
    await db.transaction(async (tx) => {
      const rows = await tx
        .update(payments)
        .set({
          payoutStage: "signed",
          nonce: sql`signed.nonce`,
          signedTransaction: sql`signed.raw`,
          transactionHashes: sql`jsonb_build_array(signed.hash)`,
          walletAddress: sql`signed.wallet`,
          authorWallet: sql`signed.wallet`,
          chainId: identity.chainId,
          genesisHash: identity.genesisHash,
          tokenAddress: identity.tokenAddress,
          attempts: sql`${payments.attempts} + 1`,
        })
        .from(signed)
        .where(and(sql`${payments.id} = signed.id`, isPending, eq(payments.payoutStage, "queued"), sql`${payments.signedTransaction} is null`))
        .returning({ id: payments.id });
      if (rows.length !== batch.length) tx.rollback();
    });
    return true;
  } catch (error) {
    if (error instanceof TransactionRollbackError) return false;
    throw error;
  }
}

/** A replacement (same nonce, higher fees) is stored before it is sent; its hash joins the history. */
export async function storeReplacement(db: Db, payment: Payment, raw: string, hash: string): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({
      signedTransaction: raw,
      transactionHashes: [...payment.transactionHashes, hash],
      payoutStage: "signed",
      attempts: sql`${payments.attempts} + 1`,
    })
    .where(and(eq(payments.id, payment.id), isPending, eq(payments.signedTransaction, payment.signedTransaction!)))
    .returning({ id: payments.id });
  return rows.length === 1;
}

export async function markBroadcast(db: Db, paymentIds: number[], at: Date): Promise<void> {
  if (paymentIds.length === 0) return;
  await db
    .update(payments)
    .set({ payoutStage: "broadcast", broadcastAt: at, lastError: null })
    .where(and(inArray(payments.id, paymentIds), isPending, ne(payments.payoutStage, "confirming")));
}

export async function markConfirming(db: Db, paymentId: number, hash: string): Promise<void> {
  await db
    .update(payments)
    .set({ payoutStage: "confirming", transactionHash: hash })
    .where(and(eq(payments.id, paymentId), isPending));
}

/**
 * Payments completed after their confirmations, each with the hash that has the receipt, in one
 * transaction: every author's earnings grow by what was completed for them, once.
 */
export async function completePayments(db: Db, mined: Array<{ paymentId: number; hash: string }>, at: Date): Promise<void> {
  if (mined.length === 0) return;
  const receipts = valuesList("mined", [["id", "integer"], ["hash", "text"]], mined.map((entry) => [entry.paymentId, entry.hash]));
  await db.transaction(async (tx) => {
    const completed = await tx
      .update(payments)
      .set({ status: "completed", transactionHash: sql`mined.hash`, completedAt: at, paidAt: at, lastError: null })
      .from(receipts)
      .where(and(sql`${payments.id} = mined.id`, isPending))
      .returning({ authorId: payments.authorId, amount: payments.amount });
    if (completed.length === 0) return;
    // Summed per author first: an UPDATE … FROM applies one joined row per author, however many match.
    const paid = valuesList("paid", [["author_id", "uuid"], ["amount", "numeric"]], completed.map((row) => [row.authorId, row.amount]));
    await tx
      .update(users)
      .set({ totalEarnings: sql`${users.totalEarnings} + earned.amount` })
      .from(sql`(select author_id, sum(amount) as amount from ${paid} group by author_id) as earned`)
      .where(sql`${users.id} = earned.author_id`);
  });
}

export async function failPayment(db: Db, paymentId: number, hash: string, reason: string): Promise<void> {
  await db
    .update(payments)
    .set({ status: "failed", transactionHash: hash, lastError: reason })
    .where(and(eq(payments.id, paymentId), isPending));
}

/** The nonce went to another transaction: this payment's own transaction can never land, so it is signed anew. */
export async function requeueTakenNonce(db: Db, payment: Payment): Promise<void> {
  await db
    .update(payments)
    .set({ ...CLEARED_TRANSACTION, lastError: `Nonce ${payment.nonce} was used by another transaction; queued again.` })
    .where(and(eq(payments.id, payment.id), isPending, eq(payments.signedTransaction, payment.signedTransaction!)));
}

/** A payment that could not go out now waits, longer after each attempt. */
export async function postpone(db: Db, paymentIds: number[], reason: string, until: Date): Promise<void> {
  if (paymentIds.length === 0) return;
  await db
    .update(payments)
    .set({ lastError: reason, nextAttemptAt: until })
    .where(and(inArray(payments.id, paymentIds), isPending));
}
