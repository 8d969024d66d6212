import { isForbiddenError, useAdminOverview, usePaymentDiagnostics, usePayoutSla } from "@/features/admin/admin-queries";
import { AdminOnlyNotice, QueryBoundary, SectionSkeleton } from "@/features/admin/admin-section";
import { AdminTotals } from "@/features/admin/admin-totals";
import { AdminUsers } from "@/features/admin/admin-users";
import { PaymentDiagnosticsTable } from "@/features/admin/payment-diagnostics";
import { PayoutHealthBanner } from "@/features/admin/payout-health";
import { PayoutQueue } from "@/features/admin/payout-queue";
import { PayoutSlaSection } from "@/features/admin/payout-sla";
import { ReconciliationReport } from "@/features/admin/reconciliation-report";
import { SuspiciousActivity } from "@/features/admin/suspicious-activity";

const OVERVIEW_SKELETON = <SectionSkeleton cards={3} rows={4} />;
const SLA_SKELETON = <SectionSkeleton cards={4} rows={0} />;
const DIAGNOSTICS_SKELETON = <SectionSkeleton rows={5} />;

/**
 * The dashboard's admin tab (docs/product.md#screens): first whether payouts go out (a paused sender
 * needs the admin before anything else), then totals and users with their books, the payout times,
 * the payment diagnostics, the suspicious download bursts, the payout queue and the reconciliation of
 * the ledger with the chain.
 */
export function AdminPanel() {
  const overview = useAdminOverview();
  const diagnostics = usePaymentDiagnostics();
  const sla = usePayoutSla();

  // Every call answers 403 to anyone but the admin: one clear notice instead of three failures.
  if ([overview, diagnostics, sla].some((query) => isForbiddenError(query.error))) {
    return (
      <div data-testid="admin-panel">
        <AdminOnlyNotice />
      </div>
    );
  }

  return (
    <div data-testid="admin-panel" className="space-y-12">
      {/* It comes with the diagnostics; until they arrive their own skeleton says so, further down. */}
      {diagnostics.data && <PayoutHealthBanner health={diagnostics.data.payoutHealth} />}
      <QueryBoundary query={overview} loadErrorKey="admin.overview.loadError" skeleton={OVERVIEW_SKELETON}>
        {({ totals, users, storageQuotaBytes }) => (
          <>
            <AdminTotals totals={totals} />
            <AdminUsers users={users} storageQuotaBytes={storageQuotaBytes} />
          </>
        )}
      </QueryBoundary>
      <QueryBoundary query={sla} loadErrorKey="admin.sla.loadError" skeleton={SLA_SKELETON}>
        {(payoutSla) => <PayoutSlaSection sla={payoutSla} />}
      </QueryBoundary>
      <QueryBoundary query={diagnostics} loadErrorKey="admin.diagnostics.loadError" skeleton={DIAGNOSTICS_SKELETON}>
        {({ books, queue, reconciliation, suspiciousActivity }) => (
          <>
            <PaymentDiagnosticsTable books={books} />
            <SuspiciousActivity bursts={suspiciousActivity} />
            <PayoutQueue queue={queue} />
            <ReconciliationReport reconciliation={reconciliation} />
          </>
        )}
      </QueryBoundary>
    </div>
  );
}
