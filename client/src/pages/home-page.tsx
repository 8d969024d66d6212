import { useTranslation } from "react-i18next";
import { PageFrame } from "@/components/layout/page-frame";
import { useAuth } from "@/hooks/use-auth";

export function HomePage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const name = user?.firstName || t("home.defaultName");
  return <PageFrame title={t("home.welcome", { name })} description={t("home.comingSoon")} headingTestId="welcome" />;
}
