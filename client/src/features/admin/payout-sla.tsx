import type { PayoutSla } from "@shared/wallet";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { AdminSection } from "@/features/admin/admin-section";
import { FigureCards } from "@/features/admin/figure-cards";
import { useAdminFormat } from "@/features/admin/use-admin-format";

const NONE = "—";

/**
 * How long authors wait (docs/product.md#what-authors-see): the median and 99th percentile from owed to
 * finalized over the window, the payouts behind them, and how old the oldest payment still owed is.
 */
export function PayoutSlaSection({ sla }: { sla: PayoutSla }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const figures = [
    { label: t("admin.sla.p50"), value: sla.p50Seconds === null ? NONE : format.duration(sla.p50Seconds), testId: "sla-p50" },
    { label: t("admin.sla.p99"), value: sla.p99Seconds === null ? NONE : format.duration(sla.p99Seconds), testId: "sla-p99" },
    { label: t("admin.sla.completed", { days: sla.days }), value: format.integer(sla.completed), testId: "sla-completed" },
    {
      label: t("admin.sla.oldestOwed"),
      value: sla.oldestOwedAgeSeconds === null ? t("admin.sla.noneOwed") : format.duration(sla.oldestOwedAgeSeconds),
      testId: "sla-oldest-owed",
    },
  ];
  const notes = [
    sla.p50Seconds === null && t("admin.sla.noCompleted", { days: sla.days }),
    sla.oldestOwedAt !== null && t("admin.sla.oldestOwedSince", { date: format.dateTime(sla.oldestOwedAt) }),
  ].filter((note) => note !== false);
  return (
    <AdminSection headingId={headingId} title={t("admin.sla.heading")} description={t("admin.sla.description", { days: sla.days })} testId="payout-sla">
      <FigureCards figures={figures} columnsClassName="grid-cols-2 lg:grid-cols-4" />
      {notes.map((note) => (
        <p key={note} className="mt-3 text-sm text-ink-muted">
          {note}
        </p>
      ))}
    </AdminSection>
  );
}
