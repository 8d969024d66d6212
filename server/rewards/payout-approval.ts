import { MaxUint256 } from "ethers";
import { type Fees, bumped } from "../chain/fee-pricing.ts";
import type { Heads, PmeChain } from "../chain/pme-chain.ts";
import { logger } from "../system/logger.ts";
import type { PayoutFees } from "./payout-fees.ts";

/** The batch payer's approval this process sent, until a settled block shows it (`at`: when sent, for the stuck delay). */
interface PendingApproval {
  nonce: number;
  fees: Fees;
  raw: string;
  at: number;
}

export interface PayoutApprovalSteps {
  now: () => Date;
  /** A sent approval not seen after this long is replaced with the same nonce and higher fees. */
  stuckAfterMs: number;
  /** Renews the sender lease before anything is signed; false when this process no longer holds it. */
  holdLease: () => Promise<boolean>;
  /** The next nonce no transaction of the sender holds. */
  nextNonce: () => Promise<number>;
}

/**
 * The hot wallet's one-time approval of the batch payer (docs/decisions/0039), sent like any payout
 * transaction and trusted only once a settled block shows it: a batch sent on an approval that a
 * reorganisation then takes away would revert, and until then nothing else is signed, so no batch
 * can wait behind it.
 */
export class PayoutApproval {
  /** The hot wallet's allowance to the batch payer is seen in a settled block: it never has to be given again. */
  private seen = false;
  /** The approval this process sent, until it is seen settled. */
  private pending: PendingApproval | undefined;

  constructor(
    private readonly chain: Pick<PmeChain, "batches" | "minedNonce" | "broadcast">,
    private readonly fees: PayoutFees,
    private readonly steps: PayoutApprovalSteps,
  ) {}

  /** Whether the approval stands in a settled block (a batch, or its replacement, can only revert without it). */
  get stands(): boolean {
    return this.seen;
  }

  /** An approval sent and not yet seen settled: followed every round, as any transaction in flight. */
  get inFlight(): boolean {
    return this.pending !== undefined;
  }

  /**
   * True once the approval stands. Until it is seen, it is sent again every round (a node may have
   * lost it); once stuck, replaced at its nonce with higher fees; and signed anew at a new nonce
   * when its own went to another transaction.
   */
  async ensure(heads: Heads): Promise<boolean> {
    if (this.seen) return true;
    if ((await this.chain.batches.allowance(heads.settled)) === MaxUint256) {
      this.seen = true;
      this.pending = undefined;
      return true;
    }
    const now = this.steps.now().getTime();
    if (this.pending && (await this.chain.minedNonce(heads.settled)) > this.pending.nonce) this.pending = undefined;
    if (this.pending && now - this.pending.at < this.steps.stuckAfterMs) {
      await this.send(this.pending);
      return false;
    }
    const fees = await this.fees.price(this.pending && bumped(this.pending.fees));
    if (!fees || !(await this.steps.holdLease())) return false;
    const nonce = this.pending?.nonce ?? (await this.steps.nextNonce());
    const { raw } = await this.chain.batches.signApproval(nonce, fees);
    this.pending = { nonce, fees, raw, at: now };
    logger.info({ component: "payouts", nonce }, "the hot wallet approves the batch payer");
    await this.send(this.pending);
    return false;
  }

  /** A refusal for its fees never entered the pool: the next round prices it again at once, as a stuck one. */
  private async send(approval: PendingApproval): Promise<void> {
    const outcome = await this.chain.broadcast(approval.raw);
    if (outcome.accepted) return;
    this.fees.learnFrom(outcome.underpriced);
    approval.at = Number.NEGATIVE_INFINITY;
  }
}
