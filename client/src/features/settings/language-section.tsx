import { INTERFACE_LANGUAGES } from "@shared/languages";
import { useTranslation } from "react-i18next";
import { useInterfaceLanguage } from "@/features/site";
import { Panel } from "@/ui/panel";
import { SelectField } from "@/ui/select-field";

/** The same choice as the header's language menu, with what it also decides: the language of the account's mail. */
export function LanguageSection() {
  const { t } = useTranslation();
  const { current, choose } = useInterfaceLanguage();
  return (
    <Panel title={t("settings.language.title")} description={t("settings.language.description")}>
      <SelectField
        label={t("settings.language.label")}
        name="language"
        className="mt-5 sm:max-w-xs"
        data-testid="settings-language"
        value={current}
        onChange={(event) => void choose(event.target.value)}
        options={INTERFACE_LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`), lang: language }))}
      />
    </Panel>
  );
}
