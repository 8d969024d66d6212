import type { PaymentDiagnostics, QueuedPayment } from "@shared/admin";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { AdminSection } from "@/features/admin/admin-section";
import { AdminTable, Cell, entryClassName, stackedBodyClassName } from "@/features/admin/admin-table";
import { Badge } from "@/features/admin/badge";
import { useAdminFormat } from "@/features/admin/use-admin-format";

type PayoutQueueGroups = PaymentDiagnostics["queue"];
type QueueGroupName = keyof PayoutQueueGroups;

const QUEUE_GROUPS: QueueGroupName[] = ["pending", "held", "inFlight", "failed", "cancelled"];

/** Why a held payment waits, or which removal cancelled one (docs/decisions/0090). */
function HoldOrCancellation({ payment }: { payment: QueuedPayment }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const { hold, cancellation } = payment;
  if (cancellation) {
    return t("admin.queue.cancelledBy", { id: cancellation.decisionId, date: format.dateTime(cancellation.at), facts: cancellation.facts });
  }
  if (!hold) return null;
  return hold.because.kind === "decision"
    ? t("admin.queue.heldByDecision", { id: hold.because.decisionId, date: format.dateTime(hold.since), facts: hold.because.facts })
    : t(`admin.queue.heldByNotice.${hold.because.category}`, { date: format.dateTime(hold.since) });
}

function QueuedPaymentRow({ payment, showStage, showReason, showAttempts }: { payment: QueuedPayment; showStage: boolean; showReason: boolean; showAttempts: boolean }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  return (
    <tr role="row" data-testid="queued-payment" data-payment-id={payment.id} className={entryClassName}>
      <Cell label={t("admin.fields.payment")} className="font-semibold">
        {format.id(payment.id)}
      </Cell>
      <Cell label={t("admin.fields.book")} className="break-words">
        {payment.bookId === null || payment.bookTitle === null ? "—" : <span className="font-medium">{payment.bookTitle}</span>}
        <span className="block text-ink-muted">{payment.authorName}</span>
      </Cell>
      <Cell label={t("admin.fields.amount")} className="tabular-nums">
        {format.tokens(payment.amount)}
      </Cell>
      {showStage && <Cell label={t("admin.queue.stage")}>{t(`admin.queue.stages.${payment.stage}`)}</Cell>}
      {showReason && (
        <Cell label={t("admin.queue.reason")} className="break-words lg:min-w-52">
          <HoldOrCancellation payment={payment} />
        </Cell>
      )}
      {showAttempts && (
        <>
          <Cell label={t("admin.queue.attempts")} className="tabular-nums">
            {format.integer(payment.attempts)}
          </Cell>
          <Cell label={t("admin.queue.nextAttempt")}>
            <time dateTime={payment.nextAttemptAt}>{format.dateTime(payment.nextAttemptAt)}</time>
            {payment.waitingForWallet && (
              <span className="mt-1 block">
                <Badge tone="warning">{t("admin.queue.waitingForWallet")}</Badge>
              </span>
            )}
          </Cell>
        </>
      )}
      <Cell label={t("admin.queue.lastError")}>
        {payment.lastError ? (
          <span className="font-mono text-xs break-words">{payment.lastError}</span>
        ) : (
          <span className="text-ink-muted">{t("admin.queue.noError")}</span>
        )}
      </Cell>
    </tr>
  );
}

function QueueGroup({ group, payments }: { group: QueueGroupName; payments: QueuedPayment[] }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const showStage = group === "inFlight";
  const showReason = group === "held" || group === "cancelled";
  // A cancelled payment will never be tried again: attempts and a next try mean nothing for it.
  const showAttempts = group !== "cancelled";
  const columns = [
    { label: t("admin.fields.payment") },
    { label: t("admin.fields.book") },
    { label: t("admin.fields.amount") },
    ...(showStage ? [{ label: t("admin.queue.stage") }] : []),
    ...(showReason ? [{ label: t("admin.queue.reason") }] : []),
    ...(showAttempts ? [{ label: t("admin.queue.attempts") }, { label: t("admin.queue.nextAttempt") }] : []),
    { label: t("admin.queue.lastError") },
  ];
  return (
    <section aria-labelledby={headingId} data-testid={`payout-queue-${group}`}>
      <h3 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
        {t(`admin.queue.${group}.heading`)}{" "}
        <span className="rounded-full bg-accent-soft px-2 py-0.5 font-sans text-sm text-accent-strong tabular-nums">
          {format.integer(payments.length)}
        </span>
      </h3>
      <div className="mt-3">
        {payments.length === 0 ? (
          <p className="text-ink-muted">{t(`admin.queue.${group}.empty`)}</p>
        ) : (
          <AdminTable labelledBy={headingId} columns={columns}>
            <tbody role="rowgroup" className={stackedBodyClassName}>
              {payments.map((payment) => (
                <QueuedPaymentRow key={payment.id} payment={payment} showStage={showStage} showReason={showReason} showAttempts={showAttempts} />
              ))}
            </tbody>
          </AdminTable>
        )}
      </div>
    </section>
  );
}

export function PayoutQueue({ queue }: { queue: PayoutQueueGroups }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <AdminSection headingId={headingId} title={t("admin.queue.heading")} description={t("admin.queue.description")} testId="payout-queue">
      <div className="space-y-8">
        {QUEUE_GROUPS.map((group) => (
          <QueueGroup key={group} group={group} payments={queue[group]} />
        ))}
      </div>
    </AdminSection>
  );
}
