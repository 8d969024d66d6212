import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PageFrame } from "@/components/layout/page-frame";
import { textLinkClassName } from "@/components/ui/styles";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t("notFound.title")} description={t("notFound.description")}>
      <Link href="/" className={`mt-6 inline-block ${textLinkClassName}`}>
        {t("common.backHome")}
      </Link>
    </PageFrame>
  );
}
