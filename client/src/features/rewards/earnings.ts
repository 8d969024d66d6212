import type { AuthorPayment, PaymentView } from "@shared/wallet";

export interface Earnings {
  /** PME received, floored to a whole token (docs/product.md#formats). */
  wholeTokens: number;
  completedPayments: number;
}

// Amounts have two decimals ("1.00"): summed in hundredths, so many payments add up exactly.
const wholeTokensOf = (payments: Pick<PaymentView, "amount">[]) => Math.floor(payments.reduce((sum, payment) => sum + Math.round(Number(payment.amount) * 100), 0) / 100);

/** Only completed payments count toward what an author has earned (docs/product.md#rewards); pending and failed ones do not. */
export function completedEarnings(payments: Pick<PaymentView, "amount" | "status">[]): Earnings {
  const completed = payments.filter((payment) => payment.status === "completed");
  return { wholeTokens: wholeTokensOf(completed), completedPayments: completed.length };
}

export interface Owed {
  /** PME owed and not yet paid, floored to a whole token. */
  wholeTokens: number;
  /** Some of it waits for the author to connect a wallet: theirs to end. */
  waitsForWallet: boolean;
}

/** What is owed to the author and still on its way (pending payments), and whether a wallet is what it waits for. */
export function owedEarnings(payments: Pick<AuthorPayment, "amount" | "status" | "waiting">[]): Owed {
  const pending = payments.filter((payment) => payment.status === "pending");
  return { wholeTokens: wholeTokensOf(pending), waitsForWallet: pending.some((payment) => payment.waiting?.reason === "no-wallet") };
}
