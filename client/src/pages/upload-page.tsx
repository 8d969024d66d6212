import { useTranslation } from "react-i18next";
import { PageFrame } from "@/components/layout/page-frame";

export function UploadPage() {
  const { t } = useTranslation();
  return <PageFrame title={t("upload.title")} description={t("upload.comingSoon")} />;
}
