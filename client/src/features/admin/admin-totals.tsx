import type { AdminOverview } from "@shared/admin";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { AdminSection } from "@/features/admin/admin-section";
import { FigureCards } from "@/features/admin/figure-cards";
import { useAdminFormat } from "@/features/admin/use-admin-format";

export function AdminTotals({ totals }: { totals: AdminOverview["totals"] }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const figures = [
    { label: t("admin.totals.users"), value: format.integer(totals.users), testId: "admin-total-users" },
    { label: t("admin.totals.books"), value: format.integer(totals.books), testId: "admin-total-books" },
    { label: t("admin.totals.activeUsers30Days"), value: format.integer(totals.activeUsers30Days), testId: "admin-active-users" },
  ];
  return (
    <AdminSection headingId={headingId} title={t("admin.totals.heading")} testId="admin-totals">
      <FigureCards figures={figures} columnsClassName="sm:grid-cols-3" />
    </AdminSection>
  );
}
