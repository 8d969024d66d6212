import type { PaymentView } from "@shared/wallet";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNumberFormat } from "@/lib/use-number-format";
import { completedEarnings } from "@/features/rewards";

interface AuthorSummaryProps {
  totalDownloads: number | undefined;
  payments: PaymentView[] | undefined;
  publishedBooks: number | undefined;
}

function Figure({ label, value, detail }: { label: string; value: ReactNode; detail?: string }) {
  return (
    // Figure first, then its label, as on the home screen; the list keeps the label before the value.
    <div className="flex flex-col gap-1 rounded-xl border border-line bg-surface p-5 shadow-sm">
      <dt className="order-2 text-sm text-ink-muted">{label}</dt>
      <dd className="order-1 font-serif text-4xl font-semibold text-accent">{value}</dd>
      {detail && <dd className="order-3 text-sm text-ink-muted">{detail}</dd>}
    </div>
  );
}

/** The three headline figures: downloads, PME earned (whole, from completed payments) and books published. */
export function AuthorSummary({ totalDownloads, payments, publishedBooks }: AuthorSummaryProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const earnings = payments && completedEarnings(payments);
  const unknown = "—";
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      <Figure label={t("dashboard.summary.downloads")} value={totalDownloads === undefined ? unknown : format.count(totalDownloads)} />
      <Figure
        label={t("dashboard.summary.earnings")}
        value={
          <>
            <span data-testid="earnings-value">{earnings ? format.integer(earnings.wholeTokens) : unknown}</span>
            <span className="ml-2 text-xl">PME</span>
          </>
        }
        detail={earnings && t("dashboard.summary.completedPayments", { count: earnings.completedPayments })}
      />
      <Figure label={t("dashboard.summary.books")} value={publishedBooks === undefined ? unknown : format.integer(publishedBooks)} />
    </dl>
  );
}
