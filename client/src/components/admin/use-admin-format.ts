import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatInteger } from "@/lib/format";

/** Amounts read like the ledger's "1.00", yet keep every one of PME's 18 decimals a transfer may carry. */
const TOKEN_FRACTION_DIGITS = { minimumFractionDigits: 2, maximumFractionDigits: 18 };

/** Counts, PME amounts and times in the interface's current language; they follow a language switch. */
export function useAdminFormat() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(() => {
    const tokenFormat = new Intl.NumberFormat(language, TOKEN_FRACTION_DIGITS);
    const dateTimeFormat = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    return {
      integer: (value: number) => formatInteger(value, language),
      // The API sends amounts as decimal strings; Intl formats those exactly, with no float rounding.
      tokens: (amount: string | number) => t("admin.tokenAmount", { amount: tokenFormat.format(amount as number | Intl.StringNumericLiteral) }),
      dateTime: (isoTime: string) => dateTimeFormat.format(new Date(isoTime)),
      id: (id: number) => t("admin.idNumber", { id }),
    };
  }, [language, t]);
}
