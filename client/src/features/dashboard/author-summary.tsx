import type { AuthorPayment } from "@shared/wallet";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNumberFormat } from "@/lib/use-number-format";
import { completedEarnings, owedEarnings } from "@/features/rewards";

interface AuthorSummaryProps {
  totalDownloads: number | undefined;
  payments: AuthorPayment[] | undefined;
  publishedBooks: number | undefined;
  /** How many readers follow the author; who they are is never shown (docs/product.md#follows). */
  followers: number | undefined;
}

function Figure({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    // Figure first, then its label, as on the home screen; the list keeps the label before the value.
    <div className="flex flex-col gap-1 rounded-xl border border-line bg-surface p-5 shadow-sm">
      <dt className="order-2 text-sm text-ink-muted">{label}</dt>
      <dd className="order-1 font-serif text-4xl font-semibold text-accent">{value}</dd>
      {detail && <dd className="order-3 text-sm text-ink-muted">{detail}</dd>}
    </div>
  );
}

/** The headline figures: counted downloads, PME earned (whole, from completed payments, with what is owed beside it), books published and followers. */
export function AuthorSummary({ totalDownloads, payments, publishedBooks, followers }: AuthorSummaryProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const earnings = payments && completedEarnings(payments);
  const owed = payments && owedEarnings(payments);
  const owedText =
    owed && owed.wholeTokens > 0
      ? t(owed.waitsForWallet ? "dashboard.summary.owedWaiting" : "dashboard.summary.owedOnItsWay", { amount: format.integer(owed.wholeTokens) })
      : undefined;
  const unknown = "—";
  return (
    <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Figure label={t("dashboard.summary.downloads")} value={totalDownloads === undefined ? unknown : format.count(totalDownloads)} />
      <Figure
        label={t("dashboard.summary.earnings")}
        value={
          <>
            <span data-testid="earnings-value">{earnings ? format.integer(earnings.wholeTokens) : unknown}</span>
            <span className="ml-2 text-xl">PME</span>
          </>
        }
        detail={
          earnings && (
            <>
              {t("dashboard.summary.completedPayments", { count: earnings.completedPayments })}
              {owedText && (
                <span data-testid="owed-value" className="mt-1 block font-medium text-ink">
                  {owedText}
                </span>
              )}
            </>
          )
        }
      />
      <Figure label={t("dashboard.summary.books")} value={publishedBooks === undefined ? unknown : format.integer(publishedBooks)} />
      <Figure
        label={t("dashboard.summary.followers")}
        value={<span data-testid="dashboard-followers">{followers === undefined ? unknown : format.count(followers)}</span>}
        detail={t("dashboard.summary.followersPrivate")}
      />
    </dl>
  );
}
