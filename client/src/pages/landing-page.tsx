import { useTranslation } from "react-i18next";
import { PageFrame } from "@/components/layout/page-frame";

export function LandingPage() {
  const { t } = useTranslation();
  return <PageFrame title={t("landing.title")} description={t("landing.comingSoon")} />;
}
