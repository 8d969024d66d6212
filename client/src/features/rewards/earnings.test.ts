import { describe, expect, it } from "vitest";
import { completedEarnings } from "@/features/rewards/earnings";

describe("completedEarnings", () => {
  it("adds completed payments only and floors the sum to whole PME", () => {
    const payments = [
      { amount: "1.00", status: "completed" as const },
      { amount: "0.70", status: "completed" as const },
      { amount: "1.00", status: "pending" as const },
      { amount: "1.00", status: "failed" as const },
    ];
    expect(completedEarnings(payments)).toEqual({ wholeTokens: 1, completedPayments: 2 });
  });

  it("adds many small amounts exactly", () => {
    const tenths = Array.from({ length: 30 }, () => ({ amount: "0.10", status: "completed" as const }));
    expect(completedEarnings(tenths).wholeTokens).toBe(3);
  });
});
