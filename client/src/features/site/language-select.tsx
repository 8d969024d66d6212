import { useId } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_LANGUAGE, INTERFACE_LANGUAGES } from "@shared/languages";
import { useAuth } from "@/features/accounts";
import { apiRequest } from "@/lib/api";

/** The interface language shown, and the change of it that the header's menu and the settings screen make. */
export function useInterfaceLanguage() {
  const { i18n } = useTranslation();
  const { isAuthenticated } = useAuth();
  const current = INTERFACE_LANGUAGES.find((language) => language === i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
  const choose = async (language: string) => {
    await i18n.changeLanguage(language);
    // The account's mail follows the interface language (docs/product.md#accounts). The screen has
    // changed either way; a save that fails is sent again at the next change.
    if (isAuthenticated) await apiRequest("PUT", "/api/auth/language", { language }).catch(() => undefined);
  };
  return { current, choose };
}

export function LanguageSelect() {
  const { t } = useTranslation();
  const id = useId();
  const { current, choose } = useInterfaceLanguage();

  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="sr-only">
        {t("nav.language")}
      </label>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="hidden size-4 text-ink-muted sm:block" fill="none" stroke="currentColor" strokeWidth="1.5">
        <circle cx="10" cy="10" r="7.5" />
        <path d="M2.5 10h15M10 2.5c2.2 2.3 3.2 4.8 3.2 7.5s-1 5.2-3.2 7.5c-2.2-2.3-3.2-4.8-3.2-7.5s1-5.2 3.2-7.5z" />
      </svg>
      <select
        id={id}
        data-testid="language-select"
        value={current}
        onChange={(event) => void choose(event.target.value)}
        className="min-h-10 rounded-md border border-line-strong bg-surface px-2 py-1.5 text-sm text-ink hover:border-accent"
      >
        {INTERFACE_LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
