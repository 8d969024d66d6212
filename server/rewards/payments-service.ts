import type { AuthorPayment, PaymentCancellation, PaymentHold, PaymentWait, PaymentView, PayoutSla } from "../../shared/wallet.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";
import type { Queryable } from "../db/client.ts";
import { readHolds } from "./payment-holds-repository.ts";
import { type PaymentProgress, listAuthorPaymentsWithProgress, oldestOwedAt, summarizeCompletionTimes } from "./payments-repository.ts";

type Progress = Pick<PaymentProgress, "payoutStage" | "authorHasWallet" | "nextAttemptAt" | "lastError">;

/**
 * Why a pending payment has not arrived (docs/product.md#what-authors-see). A queued payment its book
 * holds is under review, whatever else it waits for: nothing is sent before the hold ends
 * (docs/decisions/0090). Then a missing wallet is named first: it is the one the author can end. A
 * queued payment not yet due waits for its hold period, or, after a failed attempt (which leaves its
 * error), for the next try. A payment already signed is on its way whatever its book's state.
 */
export function paymentWait(status: PaymentView["status"], progress: Progress, now: Date, hold?: PaymentHold): PaymentWait | null {
  if (status !== "pending") return null;
  switch (progress.payoutStage) {
    case "queued":
      if (hold) return { reason: "under-review", ...hold };
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
  const listed = await listAuthorPaymentsWithProgress(db, authorId);
  const holds = await readHolds(
    db,
    listed.filter((payment) => payment.status === "pending" && payment.progress.payoutStage === "queued").map((payment) => payment.bookId),
  );
  return listed.map(({ progress, ...payment }) => ({
    ...payment,
    sentAt: progress.sentAt?.toISOString() ?? null,
    waiting: paymentWait(payment.status, progress, now, payment.bookId === null ? undefined : holds.get(payment.bookId)),
    failureReason: payment.status === "failed" ? progress.lastError : null,
    cancellation: cancellationOf(progress),
  }));
}

/** The removal that cancelled a payment, as its author reads it (docs/decisions/0090). */
export function cancellationOf(progress: Pick<PaymentProgress, "cancelledByDecisionId" | "cancelledAt" | "cancellationFacts">): PaymentCancellation | null {
  if (progress.cancelledByDecisionId === null || progress.cancelledAt === null) return null;
  return { decisionId: progress.cancelledByDecisionId, at: progress.cancelledAt.toISOString(), facts: progress.cancellationFacts ?? "" };
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
