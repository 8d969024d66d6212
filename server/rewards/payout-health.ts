import type { Heads, PmeChain } from "../chain/pme-chain.ts";
import type { PayoutPolicy } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { payoutHealthStates } from "../db/schema.ts";
import { logger } from "../system/logger.ts";
import { recordPayoutHealth } from "./payout-health-repository.ts";

export type HealthState = (typeof payoutHealthStates)[number];

/** A health record is written when the state changes, else at most this often. */
const HEALTH_WRITE_MS = 10_000;

export interface PayoutHealthOptions {
  /** How often the hot wallet's balances are read while payouts go out. */
  balanceCheckMs: number;
  /** How often while paused for a balance, so that funding resumes payouts soon. */
  pausedBalanceCheckMs: number;
  now: () => Date;
}

/**
 * The hot wallet's health as the payout sender sees it (docs/decisions/0038): whether a new
 * transaction may go out (POL for gas, PME to pay, finality not lagging), and the record of it the
 * admin reads, kept in `payout-health-repository.ts`.
 */
export class PayoutHealth {
  private balances: { gas: bigint; token: bigint; at: Date } | undefined;
  private balancesDue = true;
  private last: { state: HealthState; at: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly chain: Pick<PmeChain, "gasBalance" | "tokenBalance" | "hotWallet">,
    private readonly policy: Pick<PayoutPolicy, "minPolWei" | "minPmeWei" | "finalityLagMaxSeconds">,
    private readonly options: PayoutHealthOptions,
  ) {}

  /** The balances are read again at the next round, whatever their age (after a round that sent). */
  recheckBalances(): void {
    this.balancesDue = true;
  }

  /**
   * How long a sender with nothing to do may go without looking at the chain: the balances' own
   * cadence, or none right after a round that sent. The record the admin reads is never older than
   * this plus a round, and funding a wallet paused for its balance is seen as soon as before.
   */
  get lookEveryMs(): number {
    if (this.balancesDue) return 0;
    const pausedForBalance = this.last?.state === "low-gas" || this.last?.state === "low-pme";
    return pausedForBalance ? this.options.pausedBalanceCheckMs : this.options.balanceCheckMs;
  }

  /** Why no new transaction may go out now, if one may not; balances are read only when due. */
  async pauseReason(heads: Heads): Promise<HealthState | null> {
    const now = this.options.now();
    if (!this.balances || now.getTime() - this.balances.at.getTime() >= this.lookEveryMs) {
      const [gas, token] = await Promise.all([this.chain.gasBalance(), this.chain.tokenBalance()]);
      this.balances = { gas, token, at: now };
      this.balancesDue = false;
    }
    if (this.balances.gas < this.policy.minPolWei) return "low-gas";
    if (this.balances.token < this.policy.minPmeWei) return "low-pme";
    if (heads.lagSeconds > this.policy.finalityLagMaxSeconds) return "finality-lag";
    return null;
  }

  /** Logs a change of state and records what the round saw; `feeNeeded` is the max fee the ceiling forbade, if it did. */
  async record(heads: Heads, state: HealthState, feeNeeded: bigint | null): Promise<void> {
    const now = this.options.now();
    if (state !== this.last?.state) logger.info({ component: "payouts", state }, state === "sending" ? "payouts sending" : `payouts paused: ${state}`);
    if (state === this.last?.state && now.getTime() - this.last.at < HEALTH_WRITE_MS) return;
    await recordPayoutHealth(this.db, {
      wallet: this.chain.hotWallet.address,
      state,
      gasBalance: this.balances!.gas.toString(),
      tokenBalance: this.balances!.token.toString(),
      balancesCheckedAt: this.balances!.at,
      finalityMode: heads.mode,
      finalityLagBlocks: heads.lagBlocks,
      finalityLagSeconds: heads.lagSeconds,
      feeNeeded: feeNeeded?.toString() ?? null,
      checkedAt: now,
    });
    this.last = { state, at: now.getTime() };
  }
}
