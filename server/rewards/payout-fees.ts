import { type FeeMarket, type Fees, minimumTipOf, priceTransaction } from "../chain/fee-pricing.ts";
import type { PmeChain } from "../chain/pme-chain.ts";
import type { PayoutPolicy } from "../config.ts";
import { logger } from "../system/logger.ts";

/**
 * The payout sender's fees (docs/decisions/0037): the pure pricing of `chain/fee-pricing.ts` over
 * the fee market, read once per round and only when needed, with the tips that nodes taught it.
 */
export class PayoutFees {
  /** The tip a node named as its minimum when it refused one of ours: never offered less again. */
  private learnedTip = 0n;
  private market: Promise<FeeMarket> | undefined;
  private needed: bigint | null = null;

  constructor(
    private readonly chain: Pick<PmeChain, "feeMarket">,
    private readonly policy: Pick<PayoutPolicy, "priorityFeeFloorWei" | "maxFeeWei">,
  ) {}

  /** A new round reads the market afresh when it first prices, and has needed nothing yet. */
  newRound(): void {
    this.market = undefined;
    this.needed = null;
  }

  /** The max fee the chain needed this round when the ceiling forbade it; null when nothing was refused for it. */
  get feeNeeded(): bigint | null {
    return this.needed;
  }

  /**
   * Fees for a new transaction, or for a replacement that must outbid `atLeast`; null (the round
   * remembers what was needed) when the ceiling is below what the chain takes.
   */
  async price(atLeast?: Fees): Promise<Fees | null> {
    this.market ??= this.chain.feeMarket();
    const floor = this.policy.priorityFeeFloorWei > this.learnedTip ? this.policy.priorityFeeFloorWei : this.learnedTip;
    const pricing = priceTransaction(await this.market, { priorityFeeFloorWei: floor, maxFeeWei: this.policy.maxFeeWei }, atLeast);
    if ("fees" in pricing) return pricing.fees;
    this.needed = pricing.tooExpensive.neededWei;
    return null;
  }

  /** A node refused a transaction for its fees: the minimum tip it named, if any, is the floor from now on. */
  learnFrom(refusal: string): void {
    const tip = minimumTipOf(refusal);
    if (tip !== null && tip > this.learnedTip) this.learnedTip = tip;
    logger.warn({ component: "payouts", refusal: refusal.split("\n")[0]!.slice(0, 200) }, "a node refused a transaction for its fees; priced again next");
  }
}
