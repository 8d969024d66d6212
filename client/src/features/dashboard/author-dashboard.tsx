import type { CurrentUser } from "@shared/auth";
import type { MonthlyDownloads } from "@shared/books";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "@/ui/panel";
import { AuthorBookList } from "@/features/dashboard/author-book-list";
import { AuthorSummary } from "@/features/dashboard/author-summary";
import { useFollowState } from "@/features/follows";
import { ModerationStatements } from "@/features/dashboard/moderation-statements";
import { DownloadReportPanel } from "@/features/dashboard/download-report";
import { OwedWalletCall, RecentPayments, RewardsInfoCard, useAuthorPayments } from "@/features/rewards";
import { useAuthorBooks, useAuthorStats } from "@/features/books";
import { StorageUsage, useStorageUsage } from "@/features/books";
import { useDownloadReport } from "@/features/dashboard/use-download-report";
import { usePublicConfig } from "@/lib/public-config";
import { SeriesManager } from "@/features/series";

const MonthlyDownloadsChart = lazy(() =>
  import("@/features/dashboard/monthly-downloads-chart").then((module) => ({ default: module.MonthlyDownloadsChart })),
);

function ChartPlaceholder() {
  return <div aria-hidden="true" className="h-46 animate-pulse rounded-md bg-line/50 motion-reduce:animate-none" />;
}

function MonthlyDownloadsSection({ months }: { months: MonthlyDownloads[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Panel title={t("dashboard.chart.title")} description={t("dashboard.chart.subtitle")}>
      <div className="mt-5">
        {months ? (
          <Suspense fallback={<ChartPlaceholder />}>
            <MonthlyDownloadsChart months={months} />
          </Suspense>
        ) : (
          <ChartPlaceholder />
        )}
      </div>
    </Panel>
  );
}

/** The author tab (docs/product.md#screens): figures, books, monthly downloads and why each counted or not, payments and how to receive rewards. */
export function AuthorDashboard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const books = useAuthorBooks(user.id);
  const stats = useAuthorStats(user.id);
  const payments = useAuthorPayments(user.id);
  const report = useDownloadReport(user.id);
  const followers = useFollowState(user.id, true);
  const { data: config } = usePublicConfig();
  const storage = useStorageUsage();

  return (
    <div className="space-y-6">
      <OwedWalletCall payments={payments.data} />
      <AuthorSummary totalDownloads={stats.data?.totalDownloads} payments={payments.data} publishedBooks={books.data?.length} followers={followers.data?.followerCount ?? undefined} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <ModerationStatements />
          <AuthorBookList books={books} />
          <SeriesManager />
          <MonthlyDownloadsSection months={stats.data?.monthlyDownloads} />
          <DownloadReportPanel report={report} />
        </div>
        <div className="space-y-6">
          <RecentPayments payments={payments} explorerUrl={config?.token.explorerUrl ?? null} />
          <RewardsInfoCard user={user} token={config?.token} />
          {storage.data && (
            <Panel title={t("storage.title")}>
              <StorageUsage className="mt-4" />
            </Panel>
          )}
        </div>
      </div>
    </div>
  );
}
