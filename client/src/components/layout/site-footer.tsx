import { useTranslation } from "react-i18next";

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-line">
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-6 text-sm text-ink-muted sm:flex-row sm:justify-between">
        <p>© {t("app.name")}</p>
        <p>{t("footer.tagline")}</p>
      </div>
    </footer>
  );
}
