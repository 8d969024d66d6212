import { parseUnits } from "ethers";
import { describe, expect, it } from "vitest";
import { bumped, isUnderpriced, minimumTipOf, priceTransaction } from "./fee-pricing.ts";

const gwei = (value: string) => parseUnits(value, "gwei");
const polygon = { priorityFeeFloorWei: gwei("30"), maxFeeWei: gwei("1000") };

describe("transaction fees (docs/decisions/0037)", () => {
  it("offers the floor when the node suggests less, and the node's tip when it suggests more", () => {
    expect(priceTransaction({ baseFeePerGas: gwei("40"), suggestedPriorityFeePerGas: gwei("1") }, polygon)).toEqual({
      fees: { maxPriorityFeePerGas: gwei("30"), maxFeePerGas: gwei("110") },
    });
    expect(priceTransaction({ baseFeePerGas: gwei("40"), suggestedPriorityFeePerGas: gwei("45") }, polygon)).toEqual({
      fees: { maxPriorityFeePerGas: gwei("45"), maxFeePerGas: gwei("125") },
    });
  });

  it("cuts the headroom to the ceiling, and waits when the next block needs more than the ceiling", () => {
    const tight = { ...polygon, maxFeeWei: gwei("100") };
    expect(priceTransaction({ baseFeePerGas: gwei("40"), suggestedPriorityFeePerGas: 0n }, tight)).toEqual({
      fees: { maxPriorityFeePerGas: gwei("30"), maxFeePerGas: gwei("100") },
    });
    expect(priceTransaction({ baseFeePerGas: gwei("80"), suggestedPriorityFeePerGas: 0n }, tight)).toEqual({
      tooExpensive: { neededWei: gwei("110"), ceilingWei: gwei("100") },
    });
  });

  it("outbids a replaced transaction by at least 10 % on both fees, or waits when that passes the ceiling", () => {
    const old = { maxPriorityFeePerGas: gwei("30"), maxFeePerGas: gwei("200") };
    const pricing = priceTransaction({ baseFeePerGas: gwei("10"), suggestedPriorityFeePerGas: gwei("1") }, polygon, bumped(old));
    expect("fees" in pricing && pricing.fees.maxPriorityFeePerGas * 100n >= old.maxPriorityFeePerGas * 110n).toBe(true);
    expect("fees" in pricing && pricing.fees.maxFeePerGas * 100n >= old.maxFeePerGas * 110n).toBe(true);
    expect(priceTransaction({ baseFeePerGas: gwei("10"), suggestedPriorityFeePerGas: 0n }, { ...polygon, maxFeeWei: gwei("210") }, bumped(old))).toMatchObject({
      tooExpensive: { ceilingWei: gwei("210") },
    });
  });

  it("reads the minimum a node names in its refusal, and tells refusals for fees apart", () => {
    const bor = "transaction underpriced: gas tip cap 1000000000, minimum needed 25000000000";
    expect(minimumTipOf(bor)).toBe(gwei("25"));
    expect(minimumTipOf("transaction underpriced")).toBeNull();
    expect([bor, "transaction underpriced", "replacement fee too low", "max fee per gas less than block base fee"].every(isUnderpriced)).toBe(true);
    expect(["nonce too low", "insufficient funds for gas * price + value", "execution reverted"].some(isUnderpriced)).toBe(false);
  });
});
