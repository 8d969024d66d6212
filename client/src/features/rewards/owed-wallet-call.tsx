import type { AuthorPayment } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { WalletIcon } from "@/ui/icons";
import { WalletButton } from "@/features/wallet";
import { owedEarnings } from "@/features/rewards/earnings";
import { useNumberFormat } from "@/lib/use-number-format";

/**
 * Said first on the dashboard when PME waits for a wallet (docs/product.md#what-authors-see): how much,
 * that it is kept safely, and the one action that sends it.
 */
export function OwedWalletCall({ payments }: { payments: AuthorPayment[] | undefined }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const owed = payments && owedEarnings(payments);
  if (!owed?.waitsForWallet || owed.wholeTokens === 0) return null;
  return (
    <section aria-labelledby="owed-wallet-title" data-testid="owed-wallet-call" className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <WalletIcon className="mt-1 size-5 shrink-0" />
        <div>
          <h2 id="owed-wallet-title" className="font-semibold">
            {t("dashboard.summary.walletCallTitle", { amount: format.integer(owed.wholeTokens) })}
          </h2>
          <p className="mt-1 text-sm">{t("dashboard.summary.walletCallBody")}</p>
        </div>
      </div>
      <WalletButton testId="owed-wallet-button" />
    </section>
  );
}
