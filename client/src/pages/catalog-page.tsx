import { useTranslation } from "react-i18next";
import { PageFrame } from "@/components/layout/page-frame";

export function CatalogPage() {
  const { t } = useTranslation();
  return <PageFrame title={t("catalog.title")} description={t("catalog.comingSoon")} />;
}
