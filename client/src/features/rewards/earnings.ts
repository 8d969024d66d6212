import type { PaymentView } from "@shared/wallet";

export interface Earnings {
  /** PME received, floored to a whole token (docs/product.md#formats). */
  wholeTokens: number;
  completedPayments: number;
}

/** Only completed payments count toward what an author has earned (docs/product.md#rewards); pending and failed ones do not. */
export function completedEarnings(payments: Pick<PaymentView, "amount" | "status">[]): Earnings {
  const completed = payments.filter((payment) => payment.status === "completed");
  // Amounts have two decimals ("1.00"): summed in hundredths, so many payments add up exactly.
  const hundredths = completed.reduce((sum, payment) => sum + Math.round(Number(payment.amount) * 100), 0);
  return { wholeTokens: Math.floor(hundredths / 100), completedPayments: completed.length };
}
