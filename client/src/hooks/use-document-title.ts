import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Names the browser tab after the screen, so tabs, history and screen readers tell screens apart. */
export function useDocumentTitle(pageTitle: string): void {
  const { t } = useTranslation();
  const title = t("app.documentTitle", { page: pageTitle });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
