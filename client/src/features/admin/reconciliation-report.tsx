import type { Reconciliation } from "@shared/admin";
import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AdminSection, Notice } from "@/features/admin/admin-section";
import { FigureCards } from "@/features/admin/figure-cards";
import { useAdminFormat } from "@/features/admin/use-admin-format";

type AvailableReconciliation = Extract<Reconciliation, { available: true }>;

interface DifferenceListProps {
  title: string;
  hint: string;
  testId: string;
  children: ReactNode;
}

function DifferenceList({ title, hint, testId, children }: DifferenceListProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid={testId}>
      <h3 id={headingId} className="text-lg font-semibold">
        {title}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{hint}</p>
      <ul role="list" className="mt-3 divide-y divide-line rounded-xl border border-line bg-surface shadow-sm">
        {children}
      </ul>
    </section>
  );
}

/** A transaction hash or an address: long, so it may break anywhere. */
function ChainValue({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs break-all">{children}</span>;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function ReconciliationDetails({ reconciliation }: { reconciliation: AvailableReconciliation }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const { transfersWithoutPayment, paymentsWithoutTransfer, completedOnEarlierChain } = reconciliation;
  const ledgerMatchesChain = transfersWithoutPayment.length === 0 && paymentsWithoutTransfer.length === 0;
  const totals = [
    { label: t("admin.reconciliation.sentOnChain"), value: format.tokens(reconciliation.sentOnChain), testId: "sent-on-chain" },
    {
      label: t("admin.reconciliation.completedInLedger"),
      value: format.tokens(reconciliation.completedInLedger),
      testId: "completed-in-ledger",
    },
  ];

  return (
    <div className="space-y-6">
      <FigureCards figures={totals} columnsClassName="sm:grid-cols-2" />
      {ledgerMatchesChain ? (
        <Notice tone="success" title={t("admin.reconciliation.allClear")} />
      ) : (
        <Notice tone="warning" title={t("admin.reconciliation.differencesFound")} />
      )}
      {transfersWithoutPayment.length > 0 && (
        <DifferenceList
          title={t("admin.reconciliation.transfersWithoutPayment.heading")}
          hint={t("admin.reconciliation.transfersWithoutPayment.hint")}
          testId="transfers-without-payment"
        >
          {transfersWithoutPayment.map((transfer) => (
            <li key={transfer.transactionHash} className="px-4 py-3">
              <dl className="space-y-1 text-sm">
                <Detail label={t("admin.fields.amount")}>{format.tokens(transfer.amount)}</Detail>
                <Detail label={t("admin.reconciliation.recipient")}>
                  <ChainValue>{transfer.to}</ChainValue>
                </Detail>
                <Detail label={t("admin.reconciliation.transaction")}>
                  <ChainValue>{transfer.transactionHash}</ChainValue>
                </Detail>
              </dl>
            </li>
          ))}
        </DifferenceList>
      )}
      {paymentsWithoutTransfer.length > 0 && (
        <DifferenceList
          title={t("admin.reconciliation.paymentsWithoutTransfer.heading")}
          hint={t("admin.reconciliation.paymentsWithoutTransfer.hint")}
          testId="payments-without-transfer"
        >
          {paymentsWithoutTransfer.map((payment) => (
            <li key={payment.paymentId} className="px-4 py-3">
              <dl className="space-y-1 text-sm">
                <Detail label={t("admin.fields.payment")}>{format.id(payment.paymentId)}</Detail>
                <Detail label={t("admin.reconciliation.transaction")}>
                  {payment.transactionHash ? (
                    <ChainValue>{payment.transactionHash}</ChainValue>
                  ) : (
                    <span className="text-ink-muted">{t("admin.reconciliation.noTransaction")}</span>
                  )}
                </Detail>
              </dl>
            </li>
          ))}
        </DifferenceList>
      )}
      {completedOnEarlierChain.length > 0 && (
        <DifferenceList
          title={t("admin.reconciliation.completedOnEarlierChain.heading")}
          hint={t("admin.reconciliation.completedOnEarlierChain.hint")}
          testId="completed-on-earlier-chain"
        >
          {completedOnEarlierChain.map((paymentId) => (
            <li key={paymentId} className="px-4 py-2 text-sm">
              {t("admin.reconciliation.paymentNumber", { id: format.id(paymentId) })}
            </li>
          ))}
        </DifferenceList>
      )}
    </div>
  );
}

export function ReconciliationReport({ reconciliation }: { reconciliation: Reconciliation }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <AdminSection
      headingId={headingId}
      title={t("admin.reconciliation.heading")}
      description={t("admin.reconciliation.description")}
      testId="reconciliation"
    >
      {reconciliation.available ? (
        <ReconciliationDetails reconciliation={reconciliation} />
      ) : (
        <Notice tone="warning" title={t("admin.reconciliation.unavailable")}>
          <p data-testid="reconciliation-reason">{reconciliation.reason}</p>
        </Notice>
      )}
    </AdminSection>
  );
}
