import type { TransactionReceipt } from "ethers";
import type { Db } from "../db/client.ts";
import { addEarnings } from "../accounts/users-repository.ts";
import {
  type InFlightTransaction,
  failTransaction,
  failUnpayable,
  hasPayoutWork,
  highestStoredNonce,
  listDue,
  listInFlight,
  markBroadcast,
  markCompleted,
  markConfirming,
  postpone,
  requeueForeignChainPayments,
  requeueTakenNonce,
  storeReplacement,
  storeSignedBatch,
} from "./payments-repository.ts";
import { holdSenderLease, newSenderLeaseHolder, releaseSenderLease, renewSenderLease } from "./sender-lease-repository.ts";
import { PayoutApproval } from "./payout-approval.ts";
import { PayoutFees } from "./payout-fees.ts";
import { PayoutHealth } from "./payout-health.ts";
import { type ChainIdentity, type Heads, PmeChain, type SignedTransfer } from "../chain/pme-chain.ts";
import { MAX_BATCH_PAYMENTS } from "../chain/batch-payer.ts";
import { type Fees, bumped } from "../chain/fee-pricing.ts";
import { DEFAULT_PAYOUT_POLICY, type PayoutPolicy } from "../config.ts";
import { logger } from "../system/logger.ts";

export interface PayoutWorkerOptions {
  /** How often the queue is looked at when nothing wakes the worker. */
  intervalMs?: number;
  /** A sent transaction not mined after this long is replaced with the same nonce and higher fees. */
  stuckAfterMs?: number;
  /** Payments paid per round, in one transaction (at most MAX_BATCH_PAYMENTS). A full batch starts the next round at once. */
  batchSize?: number;
  leaseTtlMs?: number;
  /** The clock, so tests can move time (the worker never reads Date.now() directly). */
  now?: () => Date;
  /**
   * Told the payments just completed, once their completion has committed (the authors' mail
   * notices). Never awaited by the worker: what it does cannot hold up or undo a payout.
   */
  onCompleted?: (paymentIds: number[]) => Promise<void>;
  /** Fees, finality lag and balance thresholds; a chain that is not Polygon's defaults when unset. */
  policy?: PayoutPolicy;
  /** How often the hot wallet's balances are read while payouts go out (and after every round that sent). */
  balanceCheckMs?: number;
  /** How often while paused for a balance, so that funding resumes payouts soon. */
  pausedBalanceCheckMs?: number;
}

/**
 * How long the sender lease lasts unless renewed (docs/decisions/0044). Its holder renews it at the
 * start of every round (every 2 s while idle, by one statement, docs/decisions/0085) and again just
 * before anything new is signed; the others try to take it only in rounds with something to do. A
 * sender that died on another host, or hangs, is replaced once it runs out: within this plus one
 * round's interval, 8 s, where the operators were promised 10. A round slower than this is still
 * safe (every payment's state change is a compare-and-set, docs/decisions/0009), and the renewal
 * before signing keeps two processes from signing at once.
 */
export const SENDER_LEASE_TTL_MS = 6_000;

const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 15 * 60_000;

/**
 * Payments completed at finality, each with its transfer (hash and log index), in one transaction:
 * every author's earnings grow by what was completed for them, once.
 */
async function completePayments(db: Db, mined: Array<{ paymentId: number; hash: string; logIndex: number }>, at: Date): Promise<number[]> {
  if (mined.length === 0) return [];
  return db.transaction(async (tx) => {
    const completed = await markCompleted(tx, mined, at);
    if (completed.length > 0) await addEarnings(tx, completed);
    return completed.map((payment) => payment.id);
  });
}

/**
 * Sends pending payments from the hot wallet, exactly once (docs/product.md#payouts):
 * 1. only the holder of the wallet's lease sends, whatever the number of server processes;
 * 2. a round's due payments are paid by one transaction through the batch payer, all or none
 *    (docs/decisions/0039), signed at a reserved nonce and stored with its payments before it is sent;
 * 3. after a crash the stored transaction is sent again and looked up by hash; its payments are
 *    signed anew only when its nonce is proven used by another transaction; each payment completes
 *    with its own Transfer log of the receipt;
 * 4. a transaction stuck too long, or refused as underpriced, is replaced with the same nonce and at
 *    least 10 % higher fees, once no receipt of any of its versions is found;
 * 5. a payment completes once its block is finalized (or CONFIRMATIONS deep where the node has no
 *    `finalized` tag), fails on revert, and waits on RPC errors;
 * 6. no new transaction goes out while the hot wallet is short of POL or PME, finality lags, or the
 *    fees the chain needs are above the ceiling; what is in flight is still settled
 *    (docs/decisions/0037, 0038).
 * The worker runs the rounds and holds the sender lease; it composes the fees of a round
 * (`payout-fees.ts`), the batch payer's approval (`payout-approval.ts`) and the hot wallet's health
 * (`payout-health.ts`).
 */
export class PayoutWorker {
  private readonly holder = newSenderLeaseHolder();
  private readonly chain: PmeChain;
  private readonly intervalMs: number;
  private readonly stuckAfterMs: number;
  private readonly batchSize: number;
  private readonly leaseTtlMs: number;
  private readonly now: () => Date;
  private readonly onCompleted: (paymentIds: number[]) => Promise<void>;
  private readonly fees: PayoutFees;
  private readonly approval: PayoutApproval;
  private readonly health: PayoutHealth;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeAgain = false;
  private stopped = false;
  private identity: ChainIdentity | undefined;
  private failures = 0;
  /** When this process last began a round that went past the idle check (its clock's milliseconds). */
  private lastLookAt: number | undefined;
  /** Whether this process held the sender lease when it last took or renewed it. */
  private leased = false;

  constructor(
    private readonly db: Db,
    chain: PmeChain,
    options: PayoutWorkerOptions = {},
  ) {
    this.chain = chain;
    this.intervalMs = options.intervalMs ?? 2_000;
    this.stuckAfterMs = options.stuckAfterMs ?? 3 * 60_000;
    this.batchSize = Math.min(options.batchSize ?? MAX_BATCH_PAYMENTS, MAX_BATCH_PAYMENTS);
    this.leaseTtlMs = options.leaseTtlMs ?? SENDER_LEASE_TTL_MS;
    this.now = options.now ?? (() => new Date());
    this.onCompleted = options.onCompleted ?? (() => Promise.resolve());
    const policy = options.policy ?? DEFAULT_PAYOUT_POLICY;
    this.fees = new PayoutFees(chain, policy);
    this.approval = new PayoutApproval(chain, this.fees, {
      now: this.now,
      stuckAfterMs: this.stuckAfterMs,
      holdLease: () => this.holdLease(),
      nextNonce: () => this.nextNonce(),
    });
    this.health = new PayoutHealth(db, chain, policy, {
      balanceCheckMs: options.balanceCheckMs ?? 60_000,
      pausedBalanceCheckMs: options.pausedBalanceCheckMs ?? 15_000,
      now: this.now,
    });
  }

  start(): void {
    this.schedule(0);
  }

  /** Looks at the queue now (a new payment, a wallet just connected) instead of at the next interval. */
  wake(): void {
    if (this.running) this.wakeAgain = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await releaseSenderLease(this.db, this.chain.hotWallet.address, this.holder).catch(() => {});
  }

  private announce(completed: number[]): void {
    if (completed.length === 0) return;
    this.onCompleted(completed).catch((error: unknown) => logger.error({ component: "payouts", paymentIds: completed, err: error }, "payment notices were not sent"));
  }

  private schedule(delayMs: number): void {
    // A round that ends after stop() must not start another, which would take the released lease again.
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runOnce().then((moreDue) => {
        this.running = undefined;
        // After RPC failures the worker backs off, up to a minute between rounds.
        const backoff = Math.min(this.intervalMs * 2 ** this.failures, 60_000);
        this.schedule(this.wakeAgain || moreDue ? 0 : backoff);
        this.wakeAgain = false;
      });
    }, delayMs);
    this.timer.unref();
  }

  /** One round; true when it sent a full batch, so that more payments are likely due already. */
  private async runOnce(): Promise<boolean> {
    try {
      const sent = await this.tick();
      this.failures = 0;
      return sent === this.batchSize;
    } catch (error) {
      this.failures = Math.min(this.failures + 1, 5);
      logger.error({ component: "payouts", error: (error as Error).message }, "payout round failed, retrying");
      return false;
    }
  }

  /**
   * One round: settle what is in flight, send what is due unless paused, settle again. Answers how
   * many payments it sent. An idle round (idleRound) ends at its one read of the database and, in
   * the lease holder, the lease's renewal.
   */
  async tick(): Promise<number> {
    const now = this.now();
    if (await this.idleRound(now)) return 0;
    this.lastLookAt = now.getTime();
    if (!(await this.holdLease())) return 0;
    this.identity ??= await this.chain.identity();
    this.fees.newRound();
    await requeueForeignChainPayments(this.db, this.identity);
    const heads = await this.chain.heads();
    await this.settleInFlight(this.identity, heads);
    const paused = await this.health.pauseReason(heads);
    let sent = 0;
    if (!paused && (await this.approval.ensure(heads))) {
      sent = await this.sendDue(this.identity);
      // What was just sent is often mined (and, on a local chain, finalized) already: no need to wait a
      // round for it; and what a node refused for its fees is priced again now.
      await this.settleInFlight(this.identity, await this.chain.heads());
      if (sent > 0) this.health.recheckBalances();
    }
    const feeNeeded = this.fees.feeNeeded;
    await this.health.record(heads, paused ?? (feeNeeded === null ? "sending" : "fee-ceiling"), feeNeeded);
    return sent;
  }

  /**
   * A round with nothing to do never calls the chain (docs/decisions/0085): no payment in flight or
   * due (one indexed read), no approval to follow, and the health record the admin reads still as
   * fresh as its cadence wants. The sender only renews its lease, so that it stays the sender (one
   * statement); another process leaves the lease alone until it finds something to do.
   */
  private async idleRound(now: Date): Promise<boolean> {
    if (this.approval.inFlight || this.lastLookAt === undefined) return false;
    if (now.getTime() - this.lastLookAt >= this.health.lookEveryMs) return false;
    if (await hasPayoutWork(this.db, now)) return false;
    if (this.leased) this.leased = await renewSenderLease(this.db, this.chain.hotWallet.address, this.holder, this.leaseTtlMs);
    return true;
  }

  /** Takes or renews this process's sender lease; false while another process holds it. */
  private async holdLease(): Promise<boolean> {
    this.leased = await holdSenderLease(this.db, this.chain.hotWallet.address, this.holder, this.leaseTtlMs);
    return this.leased;
  }

  /** The next nonce no transaction of ours holds: past the node's pending count and every stored one. */
  private async nextNonce(): Promise<number> {
    const [pending, stored] = await Promise.all([this.chain.pendingNonce(), highestStoredNonce(this.db, this.identity!)]);
    return Math.max(pending, (stored ?? -1) + 1);
  }

  private async settleInFlight(identity: ChainIdentity, heads: Heads): Promise<void> {
    const inFlight = await listInFlight(this.db, identity);
    if (inFlight.length === 0) return;
    // The final nonce is read before the receipts: if a nonce is used and none of our hashes has
    // a receipt afterwards, the nonce went to another transaction, never to ours. Only a settled
    // block proves it: a newer one can still be reorganised away, our transaction with it, and come
    // back into the pool to be mined again after we had signed its payments anew.
    const finalNonce = await this.chain.minedNonce(Math.max(0, Math.min(heads.settled, heads.latest)));
    // Asked all at once, the receipts go to the node as one batch of calls.
    const receipts = await Promise.all(inFlight.map((transaction) => this.newestReceipt(transaction)));
    const mined: Array<{ paymentId: number; hash: string; logIndex: number }> = [];
    const unmined: InFlightTransaction[] = [];
    for (const [index, transaction] of inFlight.entries()) {
      const found = receipts[index];
      if (!found) unmined.push(transaction);
      else if (found.receipt.status === 0) await failTransaction(this.db, transaction.id, found.hash, "The transfer reverted on chain.");
      else if (found.receipt.blockNumber <= heads.settled) mined.push(...this.paymentsPaidBy(transaction, found.receipt));
      else await markConfirming(this.db, transaction.id, found.hash);
    }
    this.announce(await completePayments(this.db, mined, this.now()));
    for (const transaction of unmined) await this.sendAgain(transaction, finalNonce);
  }

  /**
   * Each payment with the transfer that paid it: the batch pays its payments in their stored order,
   * one Transfer from the hot wallet each. A receipt that says otherwise completes nothing: it is
   * reported, and the payments stay pending for someone to look at, never marked paid on a guess.
   */
  private paymentsPaidBy(transaction: InFlightTransaction, receipt: TransactionReceipt): Array<{ paymentId: number; hash: string; logIndex: number }> {
    const transfers = this.chain.batches.transfersOf(receipt);
    const matches =
      transfers.length === transaction.payments.length &&
      transaction.payments.every((payment, index) => transfers[index]!.to.toLowerCase() === payment.wallet.toLowerCase() && transfers[index]!.amount === BigInt(payment.tokensSent));
    if (!matches) {
      logger.error(
        { component: "payouts", transactionHash: receipt.hash, nonce: transaction.nonce, transfers: transfers.length, payments: transaction.payments.length },
        "a payout transaction made transfers that are not its payments; left pending",
      );
      return [];
    }
    return transaction.payments.map((payment, index) => ({ paymentId: payment.id, hash: receipt.hash, logIndex: transfers[index]!.logIndex }));
  }

  /** The receipt of whichever version of this transaction was mined, if any (newest first). */
  private async newestReceipt(transaction: InFlightTransaction): Promise<{ hash: string; receipt: TransactionReceipt } | null> {
    const hashes = [...transaction.transactionHashes].reverse();
    const receipts = await Promise.all(hashes.map((hash) => this.chain.receipt(hash)));
    const index = receipts.findIndex((receipt) => receipt !== null);
    return index === -1 ? null : { hash: hashes[index]!, receipt: receipts[index]! };
  }

  /**
   * An in-flight transaction without a receipt (none of its versions has one, and its nonce is not
   * proven used): its nonce taken by another, stuck, or to be sent again. A stuck one, or one a node
   * refused for its fees, is replaced at the same nonce: only one of the versions can ever be mined.
   */
  private async sendAgain(transaction: InFlightTransaction, finalNonce: number): Promise<void> {
    if (transaction.nonce < finalNonce) return requeueTakenNonce(this.db, transaction);

    const stuck = transaction.broadcastAt !== null && this.now().getTime() - transaction.broadcastAt.getTime() >= this.stuckAfterMs;
    // Sent again every round until mined: harmless for a node that has it, vital for one that lost it.
    if (!stuck) {
      const outcome = await this.chain.broadcast(transaction.signedTransaction);
      if (outcome.accepted) {
        if (transaction.payments.some((payment) => payment.payoutStage === "signed")) await markBroadcast(this.db, transaction.id, this.now());
        return;
      }
      this.fees.learnFrom(outcome.underpriced);
    }
    // A replacement goes through the batch payer: without its approval standing it could only revert.
    if (!this.approval.stands) return;
    const fees = await this.fees.price(bumped(PmeChain.feesOf(transaction.signedTransaction)));
    // Above the ceiling: the stored transaction stays in flight, and the admin sees why nothing moves.
    if (!fees) return;
    const replacement = await this.signBatch(transaction.payments, transaction.nonce, fees);
    if (!(await storeReplacement(this.db, transaction, replacement.raw, replacement.hash))) return;
    const outcome = await this.chain.broadcast(replacement.raw);
    if (!outcome.accepted) return this.fees.learnFrom(outcome.underpriced);
    await markBroadcast(this.db, transaction.id, this.now());
  }

  private signBatch(payments: Array<{ wallet: string; tokensSent: string }>, nonce: number, fees: Fees): Promise<SignedTransfer> {
    return this.chain.batches.signBatch(
      payments.map((payment) => ({ to: payment.wallet, amount: BigInt(payment.tokensSent) })),
      nonce,
      fees,
    );
  }

  /**
   * Pays the due payments in one transaction through the batch payer: signed and stored with its
   * payments before it is sent (docs/product.md#payouts). Answers how many payments it sent.
   */
  private async sendDue(identity: ChainIdentity): Promise<number> {
    const now = this.now();
    const listed = await listDue(this.db, this.batchSize, now);
    // A wallet that cannot receive PME would revert the whole batch: its payment fails alone, first.
    const unpayable = listed.filter((payment) => BigInt(payment.wallet) === 0n);
    await failUnpayable(this.db, unpayable.map((payment) => payment.id), "The wallet address cannot receive PME (the zero address).");
    // The batch pays in id order: its transfers' logs then follow the payments' order (paymentsPaidBy).
    const due = listed.filter((payment) => !unpayable.includes(payment)).sort((a, b) => a.id - b.id);
    // The round may have been long since it took the lease: it is renewed before a new nonce is taken.
    if (due.length === 0 || !(await this.holdLease())) return 0;

    const [balance, nonce, fees] = await Promise.all([this.chain.tokenBalance(), this.nextNonce(), this.fees.price()]);
    if (!fees) return 0;
    const needed = due.reduce((sum, payment) => sum + BigInt(payment.tokensSent), 0n);
    if (balance < needed) {
      this.failures = Math.min(this.failures + 1, 5);
      await postpone(this.db, due.map((payment) => payment.id), "The hot wallet holds too little PME.", this.retryAt(now));
      return 0;
    }

    const signed = await this.signBatch(due, nonce, fees);
    const transactionId = await storeSignedBatch(this.db, { nonce, raw: signed.raw, hash: signed.hash, payments: due.map((payment) => ({ paymentId: payment.id, wallet: payment.wallet })) }, identity);
    if (transactionId === null) return 0;
    const outcome = await this.chain.broadcast(signed.raw);
    // A refused one is priced again by the settling that follows, which first looks for receipts, as for any transaction in flight.
    if (!outcome.accepted) {
      this.fees.learnFrom(outcome.underpriced);
      return 0;
    }
    await markBroadcast(this.db, transactionId, this.now());
    return due.length;
  }

  private retryAt(now: Date): Date {
    return new Date(now.getTime() + Math.min(RETRY_BASE_MS * 2 ** this.failures, RETRY_MAX_MS));
  }
}
