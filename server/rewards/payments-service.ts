import type { AuthorPayment, PaymentWait, PaymentView, PayoutSla } from "../../shared/wallet.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";
import type { Queryable } from "../db/client.ts";
import { type PaymentProgress, listAuthorPaymentsWithProgress, oldestOwedAt, summarizeCompletionTimes } from "./payments-repository.ts";

type Progress = Omit<PaymentProgress, "sentAt">;

/**
 * Why a pending payment has not arrived (docs/product.md#what-authors-see). A missing wallet is named
 * first: it is the one the author can end. A queued payment not yet due waits for its hold, or, after a
 * failed attempt (which leaves its error), for the next try.
 */
export function paymentWait(status: PaymentView["status"], progress: Progress, now: Date): PaymentWait | null {
  if (status !== "pending") return null;
  switch (progress.payoutStage) {
    case "queued":
      if (!progress.authorHasWallet) return { reason: "no-wallet" };
      if (progress.nextAttemptAt > now) return { reason: progress.lastError === null ? "hold" : "retry", until: progress.nextAttemptAt.toISOString() };
      return { reason: "sending" };
    case "signed":
    case "broadcast":
      return { reason: "sending" };
    case "confirming":
      return { reason: "finality" };
  }
}

/** An author's payments, newest first, each with its timeline: theirs to see, and the admin's (docs/product.md#payouts). */
export async function readAuthorPayments(db: Queryable, caller: Express.User, authorId: string, now: Date): Promise<AuthorPayment[]> {
  authorizeAccountRead(caller, authorId, "Only the author and the admin can see these payments.");
  return (await listAuthorPaymentsWithProgress(db, authorId)).map(({ progress, ...payment }) => ({
    ...payment,
    sentAt: progress.sentAt?.toISOString() ?? null,
    waiting: paymentWait(payment.status, progress, now),
    failureReason: payment.status === "failed" ? progress.lastError : null,
  }));
}

export const PAYOUT_SLA_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The admin's payout SLA (docs/product.md#admin): owed-to-completed percentiles over 30 days, and the oldest payment still owed. */
export async function readPayoutSla(db: Queryable, now: Date): Promise<PayoutSla> {
  const [times, oldest] = await Promise.all([summarizeCompletionTimes(db, new Date(now.getTime() - PAYOUT_SLA_DAYS * DAY_MS)), oldestOwedAt(db)]);
  return {
    days: PAYOUT_SLA_DAYS,
    ...times,
    oldestOwedAt: oldest?.toISOString() ?? null,
    oldestOwedAgeSeconds: oldest === null ? null : Math.max(0, Math.round((now.getTime() - oldest.getTime()) / 1000)),
  };
}
