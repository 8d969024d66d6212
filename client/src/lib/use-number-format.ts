import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, formatDate, formatFileSize, formatInteger, formatLongDate, formatMonth, formatOneDecimal, formatTokenAmount, type MonthWidth } from "@/lib/format";

/** The number and date formats in the interface's current language; they follow a language switch. */
export function useNumberFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(
    () => ({
      count: (value: number) => formatCount(value, language),
      integer: (value: number) => formatInteger(value, language),
      oneDecimal: (value: number) => formatOneDecimal(value, language),
      tokenAmount: (amount: string) => formatTokenAmount(amount, language),
      fileSize: (bytes: number) => formatFileSize(bytes, language),
      date: (isoTimestamp: string) => formatDate(isoTimestamp, language),
      longDate: (isoTimestamp: string) => formatLongDate(isoTimestamp, language),
      month: (month: string, width: MonthWidth) => formatMonth(month, language, width),
    }),
    [language],
  );
}
