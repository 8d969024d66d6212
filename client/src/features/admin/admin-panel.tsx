import { type AdminSectionKey, ADMIN_SECTIONS, adminSectionPath } from "@/features/admin/admin-sections";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { isForbiddenError, useAdminOverview, usePaymentDiagnostics, usePayoutSla } from "@/features/admin/admin-queries";
import { AdminOnlyNotice, QueryBoundary, SectionSkeleton } from "@/features/admin/admin-section";
import { AdminTotals } from "@/features/admin/admin-totals";
import { AdminUsers } from "@/features/admin/admin-users";
import { ModerationTab } from "@/features/admin/moderation-tab";
import { useNoticeQueue } from "@/features/admin/moderation-queries";
import { PaymentDiagnosticsTable } from "@/features/admin/payment-diagnostics";
import { PayoutHealthBanner } from "@/features/admin/payout-health";
import { PayoutQueue } from "@/features/admin/payout-queue";
import { PayoutSlaSection } from "@/features/admin/payout-sla";
import { ReconciliationReport } from "@/features/admin/reconciliation-report";
import { SuspiciousActivity } from "@/features/admin/suspicious-activity";

const OVERVIEW_SKELETON = <SectionSkeleton cards={3} rows={4} />;
const SLA_SKELETON = <SectionSkeleton cards={4} rows={0} />;
const DIAGNOSTICS_SKELETON = <SectionSkeleton rows={5} />;

/** Which parts of the panel each tab shows, in the order below: the overview what needs a look first, the others their share. */
const PARTS: Record<Exclude<AdminSectionKey, "moderation">, ReadonlySet<string>> = {
  overview: new Set(["health", "totals", "sla", "suspicious", "queue"]),
  users: new Set(["totals", "users"]),
  books: new Set(["diagnostics", "suspicious"]),
  payments: new Set(["health", "sla", "queue", "reconciliation"]),
};

/**
 * The tabs, as links: each has its address, so a tab is bookmarked, shared and reopened with the
 * back button; the links are in the Tab order as any links are. The moderation tab counts the open notices.
 */
function AdminNav({ section }: { section: AdminSectionKey }) {
  const { t } = useTranslation();
  const queue = useNoticeQueue();
  const openNotices = queue.data?.reduce((sum, group) => sum + group.notices.length, 0) ?? 0;
  return (
    <nav aria-label={t("admin.tabs.label")} className="mb-8 border-b border-line">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {ADMIN_SECTIONS.map((key) => (
          <li key={key}>
            <Link
              href={adminSectionPath(key)}
              aria-current={key === section ? "page" : undefined}
              data-testid={`admin-tab-${key}`}
              className="inline-flex min-h-11 items-center gap-2 border-b-2 border-transparent px-4 py-2 text-sm font-semibold whitespace-nowrap text-ink-muted hover:border-line hover:text-ink aria-[current=page]:border-accent aria-[current=page]:text-accent"
            >
              {t(`admin.tabs.${key}`)}
              {/* Heard as "Moderation 3 open notices"; seen as the tab's name and a number. */}
              {key === "moderation" && openNotices > 0 && " "}
              {key === "moderation" && openNotices > 0 && (
                <span data-testid="admin-moderation-count" className="rounded-full bg-danger px-2 py-0.5 text-xs font-bold text-white tabular-nums">
                  <span aria-hidden="true">{openNotices}</span>
                  <span className="sr-only">{t("admin.tabs.openNotices", { count: openNotices })}</span>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The sections that were the whole panel before it had tabs: first whether payouts go out (a paused
 * sender needs the admin before anything else), then totals and users with their books, the payout
 * times, the payment diagnostics, the suspicious download bursts, the payout queue and the
 * reconciliation of the ledger with the chain; each tab shows its share of them.
 */
function PaymentSections({ parts }: { parts: ReadonlySet<string> }) {
  const overview = useAdminOverview();
  const diagnostics = usePaymentDiagnostics();
  const sla = usePayoutSla();

  // Every call answers 403 to anyone but the admin: one clear notice instead of three failures.
  if ([overview, diagnostics, sla].some((query) => isForbiddenError(query.error))) return <AdminOnlyNotice />;

  return (
    <div className="space-y-12" data-testid="admin-sections">
      {/* It comes with the diagnostics; until they arrive their own skeleton says so, further down. */}
      {parts.has("health") && diagnostics.data && <PayoutHealthBanner health={diagnostics.data.payoutHealth} />}
      {(parts.has("totals") || parts.has("users")) && (
        <QueryBoundary query={overview} loadErrorKey="admin.overview.loadError" skeleton={OVERVIEW_SKELETON}>
          {({ totals, storageQuotaBytes }) => (
            <>
              {parts.has("totals") && <AdminTotals totals={totals} />}
              {parts.has("users") && <AdminUsers storageQuotaBytes={storageQuotaBytes} />}
            </>
          )}
        </QueryBoundary>
      )}
      {parts.has("sla") && (
        <QueryBoundary query={sla} loadErrorKey="admin.sla.loadError" skeleton={SLA_SKELETON}>
          {(payoutSla) => <PayoutSlaSection sla={payoutSla} />}
        </QueryBoundary>
      )}
      {parts.has("diagnostics") && <PaymentDiagnosticsTable />}
      {(parts.has("suspicious") || parts.has("queue") || parts.has("reconciliation")) && (
        <QueryBoundary query={diagnostics} loadErrorKey="admin.diagnostics.loadError" skeleton={DIAGNOSTICS_SKELETON}>
          {({ queue, reconciliation, suspiciousActivity }) => (
            <>
              {parts.has("suspicious") && <SuspiciousActivity bursts={suspiciousActivity} />}
              {parts.has("queue") && <PayoutQueue queue={queue} />}
              {parts.has("reconciliation") && <ReconciliationReport reconciliation={reconciliation} />}
            </>
          )}
        </QueryBoundary>
      )}
    </div>
  );
}

/**
 * The admin panel (docs/product.md#screens): its tabs, and the one the address names; the dashboard's
 * admin tab shows the overview.
 */
export function AdminPanel({ section = "overview" }: { section?: AdminSectionKey }) {
  const queue = useNoticeQueue();
  if (isForbiddenError(queue.error)) {
    return (
      <div data-testid="admin-panel">
        <AdminOnlyNotice />
      </div>
    );
  }
  return (
    <div data-testid="admin-panel">
      <AdminNav section={section} />
      {section === "moderation" ? <ModerationTab /> : <PaymentSections parts={PARTS[section]} />}
    </div>
  );
}
