import { useTranslation } from "react-i18next";
import { ACCOUNT_EXPORT_PATH } from "@/features/settings/use-account-settings";
import { Panel } from "@/ui/panel";
import { buttonClassName } from "@/ui/styles";

/** A plain link: the server answers with a JSON attachment, which the browser saves by itself. */
export function DataSection() {
  const { t } = useTranslation();
  return (
    <Panel title={t("settings.data.title")} description={t("settings.data.description")}>
      <a href={ACCOUNT_EXPORT_PATH} download data-testid="export-data" className={buttonClassName("secondary", "mt-4")}>
        {t("settings.data.download")}
      </a>
    </Panel>
  );
}
