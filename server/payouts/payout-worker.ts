import type { Db } from "../db/client.ts";
import type { Payment } from "../db/schema.ts";
import {
  completePayment,
  failPayment,
  highestStoredNonce,
  holdSenderLease,
  listDue,
  listInFlight,
  markBroadcast,
  markConfirming,
  newSenderLeaseHolder,
  postpone,
  releaseSenderLease,
  requeueForeignChainPayments,
  requeueTakenNonce,
  storeReplacement,
  storeSigned,
} from "./payouts-repository.ts";
import { type ChainIdentity, type Fees, PmeChain } from "./pme-chain.ts";

export interface PayoutWorkerOptions {
  /** How often the queue is looked at when nothing wakes the worker. */
  intervalMs?: number;
  /** A sent transaction not mined after this long is replaced with the same nonce and higher fees. */
  stuckAfterMs?: number;
  /** Payments signed per round; their nonces follow one another. */
  batchSize?: number;
  leaseTtlMs?: number;
  /** The clock, so tests can move time (the worker never reads Date.now() directly). */
  now?: () => Date;
}

/** At least the 10 % that nodes require of a replacement, with room for rounding. */
const bumped = (fees: Fees): Fees => ({
  maxFeePerGas: (fees.maxFeePerGas * 1125n) / 1000n + 1n,
  maxPriorityFeePerGas: (fees.maxPriorityFeePerGas * 1125n) / 1000n + 1n,
});

const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 15 * 60_000;

/**
 * Sends pending payments from the hot wallet, exactly once (DECISIONS §4):
 * 1. only the holder of the wallet's lease sends, whatever the number of server processes;
 * 2. a transaction is signed with a reserved nonce and stored (with its hash) before it is sent;
 * 3. after a crash the stored transaction is sent again and looked up by hash; it is signed anew
 *    only when its nonce is proven used by another transaction;
 * 4. a transaction stuck too long is replaced with the same nonce and at least 10 % higher fees;
 * 5. a payment completes after CONFIRMATIONS blocks, fails on revert, and waits on RPC errors.
 */
export class PayoutWorker {
  private readonly holder = newSenderLeaseHolder();
  private readonly chain: PmeChain;
  private readonly intervalMs: number;
  private readonly stuckAfterMs: number;
  private readonly batchSize: number;
  private readonly leaseTtlMs: number;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeAgain = false;
  private identity: ChainIdentity | undefined;
  private failures = 0;

  constructor(
    private readonly db: Db,
    chain: PmeChain,
    options: PayoutWorkerOptions = {},
  ) {
    this.chain = chain;
    this.intervalMs = options.intervalMs ?? 2_000;
    this.stuckAfterMs = options.stuckAfterMs ?? 3 * 60_000;
    this.batchSize = options.batchSize ?? 25;
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.now = options.now ?? (() => new Date());
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
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await releaseSenderLease(this.db, this.chain.hotWallet.address, this.holder).catch(() => {});
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        // After RPC failures the worker backs off, up to a minute between rounds.
        const backoff = Math.min(this.intervalMs * 2 ** this.failures, 60_000);
        this.schedule(this.wakeAgain ? 0 : backoff);
        this.wakeAgain = false;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    try {
      await this.tick();
      this.failures = 0;
    } catch (error) {
      this.failures = Math.min(this.failures + 1, 5);
      console.error(`[payouts] round failed, retrying: ${(error as Error).message}`);
    }
  }

  /** One round: settle what is in flight, send what is due, settle again. */
  async tick(): Promise<void> {
    if (!(await holdSenderLease(this.db, this.chain.hotWallet.address, this.holder, this.leaseTtlMs))) return;
    this.identity ??= await this.chain.identity();
    await requeueForeignChainPayments(this.db, this.identity);
    await this.settleInFlight(this.identity);
    await this.sendDue(this.identity);
    // What was just sent (or sent again) is often mined already: no need to wait a round for it.
    await this.settleInFlight(this.identity);
  }

  private async settleInFlight(identity: ChainIdentity): Promise<void> {
    const inFlight = await listInFlight(this.db, identity);
    if (inFlight.length === 0) return;
    const latestBlock = await this.chain.blockNumber();
    // The final nonce is read before the receipts: if a nonce is used and none of our hashes has
    // a receipt afterwards, the nonce went to another transaction, never to ours. Only a block with
    // all its confirmations proves it: a newer one can still be reorganised away, our transfer with
    // it, and come back into the pool to be mined again after we had signed the payment anew.
    const finalNonce = await this.chain.minedNonce(Math.max(0, latestBlock - Math.max(this.chain.confirmations, 1) + 1));
    for (const payment of inFlight) await this.settle(payment, finalNonce, latestBlock);
  }

  private async settle(payment: Payment, finalNonce: number, latestBlock: number): Promise<void> {
    for (const hash of [...payment.transactionHashes].reverse()) {
      const receipt = await this.chain.receipt(hash);
      if (!receipt) continue;
      if (receipt.status === 0) return failPayment(this.db, payment.id, hash, "The transfer reverted on chain.");
      if (latestBlock - receipt.blockNumber + 1 >= this.chain.confirmations) {
        return completePayment(this.db, payment, hash, this.now());
      }
      return markConfirming(this.db, payment.id, hash);
    }
    if (payment.nonce! < finalNonce) return requeueTakenNonce(this.db, payment);

    const stuck = payment.broadcastAt !== null && this.now().getTime() - payment.broadcastAt.getTime() >= this.stuckAfterMs;
    if (stuck) {
      const fees = bumped(PmeChain.feesOf(payment.signedTransaction!));
      const replacement = await this.chain.signTransfer(payment.walletAddress!, BigInt(payment.tokensSent!), payment.nonce!, fees);
      if (!(await storeReplacement(this.db, payment, replacement.raw, replacement.hash))) return;
      await this.chain.broadcast(replacement.raw);
    } else {
      // Sent again every round until mined: harmless for a node that has it, vital for one that lost it.
      await this.chain.broadcast(payment.signedTransaction!);
      if (payment.payoutStage !== "signed") return;
    }
    await markBroadcast(this.db, payment.id, this.now());
  }

  /** Signs due payments with consecutive nonces, stores each, then sends them. */
  private async sendDue(identity: ChainIdentity): Promise<void> {
    const now = this.now();
    const due = await listDue(this.db, this.batchSize, now);
    if (due.length === 0) return;

    const needed = due.reduce((sum, payment) => sum + BigInt(payment.tokensSent), 0n);
    if ((await this.chain.tokenBalance()) < needed) {
      this.failures = Math.min(this.failures + 1, 5);
      await postpone(this.db, due.map((payment) => payment.id), "The hot wallet holds too little PME.", this.retryAt(now));
      return;
    }

    const stored = (await highestStoredNonce(this.db, identity)) ?? -1;
    let nonce = Math.max(await this.chain.pendingNonce(), stored + 1);
    const fees = await this.chain.fees();
    const signed: Array<{ id: number; raw: string }> = [];
    for (const payment of due) {
      const transfer = await this.chain.signTransfer(payment.wallet, BigInt(payment.tokensSent), nonce, fees);
      if (!(await storeSigned(this.db, payment.id, { nonce, raw: transfer.raw, hash: transfer.hash, wallet: payment.wallet, identity }))) continue;
      signed.push({ id: payment.id, raw: transfer.raw });
      nonce += 1;
    }
    for (const payment of signed) {
      await this.chain.broadcast(payment.raw);
      await markBroadcast(this.db, payment.id, this.now());
    }
  }

  private retryAt(now: Date): Date {
    return new Date(now.getTime() + Math.min(RETRY_BASE_MS * 2 ** this.failures, RETRY_MAX_MS));
  }
}
