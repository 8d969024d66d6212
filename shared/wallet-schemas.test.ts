import { describe, expect, it } from "vitest";
import { walletChallengeSchema } from "./wallet-schemas.ts";

describe("walletChallengeSchema", () => {
  it("accepts 0x and 40 hex digits in any case", () => {
    expect(walletChallengeSchema.safeParse({ walletAddress: ` 0x${"aB".repeat(20)} ` }).success).toBe(true);
  });

  it.each(["", "0x123", `0x${"g".repeat(40)}`, `${"a".repeat(42)}`, `0x${"a".repeat(41)}`, 42])("refuses %j", (walletAddress) => {
    expect(walletChallengeSchema.safeParse({ walletAddress }).success).toBe(false);
  });
});
