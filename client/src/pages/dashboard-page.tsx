import { useTranslation } from "react-i18next";
import { PageFrame } from "@/components/layout/page-frame";

export function DashboardPage() {
  const { t } = useTranslation();
  return <PageFrame title={t("dashboard.title")} description={t("dashboard.comingSoon")} />;
}
