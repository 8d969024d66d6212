import type { AuthorPayment } from "@shared/wallet";
import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { PaymentTimeline } from "@/features/rewards/payment-timeline";
import { Panel } from "@/ui/panel";
import { ExternalLinkIcon } from "@/ui/icons";
import { textLinkClassName } from "@/ui/styles";
import { useNumberFormat } from "@/lib/use-number-format";
import { RECENT_PAYMENTS } from "@/features/rewards/use-author-payments";
import { shortHash } from "@/lib/format";

/**
 * Completed green, pending yellow, held under review grey-ringed, cancelled grey, failed red
 * (docs/product.md#rewards): a held or cancelled payment never looks like one on its way.
 */
function statusLook(payment: AuthorPayment): { dotClassName: string; labelKey: string } {
  if (payment.status === "completed") return { dotClassName: "bg-emerald-600", labelKey: "payments.status.completed" };
  if (payment.status === "pending" && payment.waiting?.reason === "under-review") return { dotClassName: "bg-surface ring-2 ring-ink-muted", labelKey: "payments.status.held" };
  if (payment.status === "pending") return { dotClassName: "bg-amber-400 ring-1 ring-amber-600", labelKey: "payments.status.pending" };
  if (payment.status === "cancelled") return { dotClassName: "bg-ink-muted", labelKey: "payments.status.cancelled" };
  return { dotClassName: "bg-red-600", labelKey: "payments.status.failed" };
}

function TransactionReference({ hash, explorerUrl }: { hash: string; explorerUrl: string | null }) {
  const { t } = useTranslation();
  if (!explorerUrl) {
    return (
      <span data-testid="payment-hash" title={hash} className="font-mono text-xs text-ink-muted">
        <span className="sr-only">{t("payments.transaction")} </span>
        {shortHash(hash)}
      </span>
    );
  }
  return (
    <a
      data-testid="payment-explorer-link"
      href={`${explorerUrl.replace(/\/+$/, "")}/tx/${hash}`}
      target="_blank"
      rel="noopener noreferrer"
      title={hash}
      className={`inline-flex items-center gap-1 text-sm ${textLinkClassName}`}
    >
      {t("payments.viewTransaction")}
      <ExternalLinkIcon className="size-3.5" />
      <span className="sr-only"> {t("common.opensInNewTab")}</span>
    </a>
  );
}

function PaymentItem({ payment, explorerUrl }: { payment: AuthorPayment; explorerUrl: string | null }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const look = statusLook(payment);
  const reason =
    payment.kind === "first-book-bonus" ? t("payments.firstBookBonus") : t("payments.milestone", { milestone: payment.milestone ?? 0 });
  return (
    <li data-testid="payment-item" data-status={payment.status} className="py-4 first:pt-0 last:pb-0">
      <div className="flex items-center justify-between gap-3">
        <span className="flex items-center gap-2 text-sm font-semibold">
          <span aria-hidden="true" data-testid="payment-status-dot" className={`size-2.5 shrink-0 rounded-full ${look.dotClassName}`} />
          {t(look.labelKey)}
        </span>
        <span className="font-serif text-lg font-semibold whitespace-nowrap">
          {t("payments.amount", { amount: format.tokenAmount(payment.amount) })}
        </span>
      </div>
      <p className="mt-1 text-sm break-words">
        {payment.bookTitle ?? t("payments.unknownBook")} · <span className="text-ink-muted">{reason}</span>
      </p>
      <PaymentTimeline payment={payment} />
      {payment.transactionHash && (
        <p className="mt-2">
          <TransactionReference hash={payment.transactionHash} explorerUrl={explorerUrl} />
        </p>
      )}
    </li>
  );
}

interface RecentPaymentsProps {
  payments: UseQueryResult<AuthorPayment[]>;
  explorerUrl: string | null;
}

/** The latest payments with their status, what earned them, their timeline and, once sent, their transaction (docs/product.md#what-authors-see). */
export function RecentPayments({ payments, explorerUrl }: RecentPaymentsProps) {
  const { t } = useTranslation();
  const recent = payments.data?.slice(0, RECENT_PAYMENTS);
  return (
    <Panel title={t("payments.title")} description={t("payments.delayNote")}>
      <div className="mt-4">
        {payments.isPending && <p className="text-sm text-ink-muted">{t("common.loading")}</p>}
        {payments.isError && <p className="text-sm text-ink-muted">{t("payments.fetchError")}</p>}
        {recent?.length === 0 && <p className="text-sm text-ink-muted">{t("payments.empty")}</p>}
        {recent && recent.length > 0 && (
          <ul role="list" data-testid="recent-payments" className="divide-y divide-line">
            {recent.map((payment) => (
              <PaymentItem key={payment.id} payment={payment} explorerUrl={explorerUrl} />
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
