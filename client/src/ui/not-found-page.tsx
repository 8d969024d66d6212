import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PageFrame } from "@/ui/page-frame";
import { textLinkClassName } from "@/ui/styles";

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
