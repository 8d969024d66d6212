import { isForbiddenError, useAdminOverview, usePaymentDiagnostics } from "@/components/admin/admin-queries";
import { AdminOnlyNotice, QueryBoundary, SectionSkeleton } from "@/components/admin/admin-section";
import { AdminTotals } from "@/components/admin/admin-totals";
import { AdminUsers } from "@/components/admin/admin-users";
import { PaymentDiagnosticsTable } from "@/components/admin/payment-diagnostics";
import { PayoutQueue } from "@/components/admin/payout-queue";
import { ReconciliationReport } from "@/components/admin/reconciliation-report";
import { SuspiciousActivity } from "@/components/admin/suspicious-activity";

const OVERVIEW_SKELETON = <SectionSkeleton cards={3} rows={4} />;
const DIAGNOSTICS_SKELETON = <SectionSkeleton rows={5} />;

/**
 * The dashboard's admin tab (docs/product.md#screens): totals and users with their books, then the payment
 * diagnostics, the suspicious download bursts, the payout queue and the reconciliation of the
 * ledger with the chain.
 */
export function AdminPanel() {
  const overview = useAdminOverview();
  const diagnostics = usePaymentDiagnostics();

  // Both calls answer 403 to anyone but the admin: one clear notice instead of two failures.
  if (isForbiddenError(overview.error) || isForbiddenError(diagnostics.error)) {
    return (
      <div data-testid="admin-panel">
        <AdminOnlyNotice />
      </div>
    );
  }

  return (
    <div data-testid="admin-panel" className="space-y-12">
      <QueryBoundary query={overview} loadErrorKey="admin.overview.loadError" skeleton={OVERVIEW_SKELETON}>
        {({ totals, users }) => (
          <>
            <AdminTotals totals={totals} />
            <AdminUsers users={users} />
          </>
        )}
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
