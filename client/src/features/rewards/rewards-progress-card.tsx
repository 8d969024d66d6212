import type { CurrentUser } from "@shared/auth";
import { bookPath } from "@shared/book-urls";
import type { BookCard } from "@shared/books";
import { downloadsToNextMilestone, MILESTONE_STEP } from "@shared/rewards";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AddressLine } from "@/features/rewards/address-line";
import { MilestoneProgress } from "@/features/rewards/milestone-progress";
import { textLinkClassName } from "@/ui/styles";
import { chainNameOf, useWallet, WalletButton } from "@/features/wallet";
import { useAuthorBooks, useAuthorStats } from "@/features/books";
import { useNumberFormat } from "@/lib/use-number-format";
import { useAuthorPayments } from "@/features/rewards/use-author-payments";
import { usePublicConfig } from "@/lib/public-config";
import { completedEarnings, owedEarnings } from "@/features/rewards/earnings";

/** The book that needs the fewest downloads to earn its next PME; the first listed wins a tie. */
function closestToNextReward(books: BookCard[]): BookCard | undefined {
  return books.reduce<BookCard | undefined>(
    (closest, book) => (!closest || downloadsToNextMilestone(book.downloadCount) < downloadsToNextMilestone(closest.downloadCount) ? book : closest),
    undefined,
  );
}

function NextRewardProgress({ books }: { books: BookCard[] }) {
  const { t } = useTranslation();
  const closest = closestToNextReward(books);
  if (!closest) {
    return (
      <p className="text-sm text-ink-muted">
        {t("rewards.home.noBooks")}{" "}
        <Link href="/upload" className={textLinkClassName}>
          {t("rewards.home.publish")}
        </Link>
      </p>
    );
  }
  return (
    <div>
      <p className="mb-2 text-sm font-semibold">
        <span className="font-normal text-ink-muted">{t("rewards.home.closestBook")}</span>{" "}
        <Link href={bookPath(closest)} lang={closest.language} className={textLinkClassName}>
          {closest.title}
        </Link>
      </p>
      <MilestoneProgress downloads={closest.downloadCount} bookTitle={closest.title} />
    </div>
  );
}

/** The wallet part of the card: connected, or where payments go and how to connect. */
function WalletInstructions({ savedAddress }: { savedAddress: string | null }) {
  const { t } = useTranslation();
  const wallet = useWallet();
  const { data: config } = usePublicConfig();
  const network = config ? chainNameOf(config.token) : t("rewards.defaultNetwork");
  if (wallet.status === "connected" && wallet.account && !wallet.isWrongChain) {
    return <AddressLine testId="home-wallet-connected" text={t("rewards.home.walletConnected")} address={wallet.account} />;
  }
  return (
    <div className="space-y-3">
      {savedAddress ? (
        <AddressLine testId="home-wallet-saved" text={t("rewards.payout.saved")} address={savedAddress} />
      ) : (
        <p className="text-sm text-ink-muted">{t("rewards.home.walletInstructions", { network })}</p>
      )}
      <WalletButton testId="rewards-wallet-button" />
    </div>
  );
}

/** The home screen's rewards card (docs/product.md#screens): progress to the next PME, what has been earned, and the wallet. */
export function RewardsProgressCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const stats = useAuthorStats(user.id);
  const books = useAuthorBooks(user.id);
  const payments = useAuthorPayments(user.id);
  // The card waits for the author's figures (docs/product.md#screens).
  if (!stats.data || !books.data) return null;
  const earned = payments.data && completedEarnings(payments.data).wholeTokens;
  // What is owed shows beside what arrived: "Earned 0 PME" alone would hide a reward waiting for a wallet.
  const owed = payments.data && owedEarnings(payments.data).wholeTokens;

  return (
    <section aria-labelledby="rewards-progress-title" data-testid="rewards-progress" className="mt-4 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="rewards-progress-title" className="text-lg font-semibold">
          {t("rewards.home.title")}
        </h2>
        {earned !== undefined && (
          <p className="flex flex-wrap gap-x-4 text-sm text-ink-muted">
            <span>
              {t("rewards.home.earned")} <span className="font-serif text-xl font-semibold text-accent">{t("payments.amount", { amount: format.integer(earned) })}</span>
            </span>
            {owed !== undefined && owed > 0 && (
              <span data-testid="home-owed">
                {t("rewards.home.owed")} <span className="font-serif text-xl font-semibold text-ink">{t("payments.amount", { amount: format.integer(owed) })}</span>
              </span>
            )}
          </p>
        )}
      </div>
      <p className="mt-1 text-sm text-ink-muted">{t("rewards.home.rule", { step: MILESTONE_STEP })}</p>
      <div className="mt-5 grid gap-6 md:grid-cols-2">
        <NextRewardProgress books={books.data} />
        <WalletInstructions savedAddress={user.walletAddress} />
      </div>
    </section>
  );
}
