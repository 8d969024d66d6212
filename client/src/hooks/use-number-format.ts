import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, formatInteger, formatOneDecimal } from "@/lib/format";

/** The number formats in the interface's current language; they follow a language switch. */
export function useNumberFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(
    () => ({
      count: (value: number) => formatCount(value, language),
      integer: (value: number) => formatInteger(value, language),
      oneDecimal: (value: number) => formatOneDecimal(value, language),
    }),
    [language],
  );
}
