import type { CurrentUser } from "@shared/auth";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AdminPanel } from "@/features/admin";
import { AuthorDashboard } from "@/features/dashboard/author-dashboard";
import { ModerationStatements } from "@/features/dashboard/moderation-statements";
import { useAuth } from "@/features/accounts";
import { EmailVerificationNotice } from "@/features/accounts";
import { PageFrame } from "@/ui/page-frame";
import { type AuthorParts, PublishInvitation, RevealedRegion, useAuthorParts } from "@/features/rewards";
import { textLinkClassName } from "@/ui/styles";
import { type TabDefinition, Tabs } from "@/ui/tabs";

function TabLoading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="text-ink-muted">
      {t("common.loading")}
    </p>
  );
}

/**
 * The author tab: a reader who has not published is invited to, and may open the author parts anyway
 * (docs/product.md#screens); a reader whose review moderation decided about reads the statement above
 * the invitation, with the way to contest it (docs/product.md#appeals).
 */
function AuthorTab({ user, authorParts }: { user: CurrentUser; authorParts: AuthorParts }) {
  const { t } = useTranslation();
  if (authorParts.shown === undefined) return <TabLoading />;
  if (!authorParts.shown) {
    return (
      <div className="space-y-6">
        <ModerationStatements />
        <PublishInvitation onShowAuthorParts={authorParts.show} note={t("authorInvitation.dashboardNote")} />
      </div>
    );
  }
  return (
    <RevealedRegion takeFocus={authorParts.revealedByReader} onFocusTaken={authorParts.focusTaken}>
      <AuthorDashboard user={user} />
    </RevealedRegion>
  );
}

function Dashboard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  // Here, so that the reader's choice outlives a switch to the admin tab and back.
  const authorParts = useAuthorParts(user);
  const tabs: TabDefinition[] = [
    { id: "author", label: t("dashboard.tabs.author"), testId: "tab-author", renderPanel: () => <AuthorTab user={user} authorParts={authorParts} /> },
  ];
  if (user.isAdmin) {
    tabs.push({
      id: "admin",
      label: t("dashboard.tabs.admin"),
      testId: "tab-admin",
      renderPanel: () => (
        <Suspense fallback={<TabLoading />}>
          <AdminPanel />
        </Suspense>
      ),
    });
  }
  return (
    <PageFrame title={t("dashboard.title")} description={t("dashboard.subtitle")}>
      <EmailVerificationNotice user={user} />
      <p className="mt-6 text-ink-muted">
        {t("settings.dashboardLink.text")}{" "}
        <Link href="/settings#e-readers" className={textLinkClassName} data-testid="settings-e-readers-link">
          {t("settings.dashboardLink.link")}
        </Link>
      </p>
      <div className="mt-8">
        <Tabs label={t("dashboard.tabs.label")} tabs={tabs} />
      </div>
    </PageFrame>
  );
}

/** The dashboard (docs/product.md#screens): the author tab for everyone, the admin tab for the admin account only; e-reader keys are in the settings. */
export function DashboardPage() {
  const { user } = useAuth();
  return user ? <Dashboard user={user} /> : null;
}
