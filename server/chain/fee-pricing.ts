import type { PayoutPolicy } from "../config.ts";

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the chain asks now: the next block's base fee and the node's suggested tip. */
export interface FeeMarket {
  baseFeePerGas: bigint;
  suggestedPriorityFeePerGas: bigint;
}

export type Pricing = { fees: Fees } | { tooExpensive: { neededWei: bigint; ceilingWei: bigint } };

/**
 * A max fee of twice the base fee plus the tip stays minable through six full blocks in a row
 * (each raises the base fee at most 12.5 %), as ethers and most wallets price it.
 */
const BASE_FEE_HEADROOM = 2n;

type PricingLimits = Pick<PayoutPolicy, "priorityFeeFloorWei" | "maxFeeWei">;

/**
 * EIP-1559 fees for a new transaction (docs/decisions/0037): the tip is the node's suggestion or
 * the floor, whichever is higher; the max fee has headroom over the base fee and is cut to the
 * ceiling. Below what the next block needs (base fee + tip) nothing can be mined: the answer is
 * then to wait, never to send.
 */
export function priceTransaction(market: FeeMarket, limits: PricingLimits, atLeast?: Fees): Pricing {
  let maxPriorityFeePerGas = max(market.suggestedPriorityFeePerGas, limits.priorityFeeFloorWei);
  let maxFeePerGas = market.baseFeePerGas * BASE_FEE_HEADROOM + maxPriorityFeePerGas;
  if (atLeast) {
    maxPriorityFeePerGas = max(maxPriorityFeePerGas, atLeast.maxPriorityFeePerGas);
    maxFeePerGas = max(maxFeePerGas, atLeast.maxFeePerGas, market.baseFeePerGas * BASE_FEE_HEADROOM + maxPriorityFeePerGas);
  }
  const needed = max(market.baseFeePerGas + maxPriorityFeePerGas, atLeast?.maxFeePerGas ?? 0n);
  if (needed > limits.maxFeeWei) return { tooExpensive: { neededWei: needed, ceilingWei: limits.maxFeeWei } };
  return { fees: { maxPriorityFeePerGas, maxFeePerGas: min(maxFeePerGas, limits.maxFeeWei) } };
}

/** At least the 10 % that nodes require of a replacement, with room for rounding. */
export function bumped(fees: Fees): Fees {
  return {
    maxFeePerGas: (fees.maxFeePerGas * 1125n) / 1000n + 1n,
    maxPriorityFeePerGas: (fees.maxPriorityFeePerGas * 1125n) / 1000n + 1n,
  };
}

/**
 * The tip a node named when it refused a transaction as underpriced: Bor and geth say
 * "transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000". Null when it named none.
 */
export function minimumTipOf(message: string): bigint | null {
  const named = /minimum needed:?\s*(\d+)/i.exec(message);
  return named ? BigInt(named[1]!) : null;
}

/** A node's refusal of a transaction for its fees: it never entered that node's pool. */
export const isUnderpriced = (message: string) => /underpriced|minimum needed|fee too low|max fee per gas less than block base fee|feecap.*below/i.test(message);

const max = (...values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
const min = (a: bigint, b: bigint) => (a < b ? a : b);
