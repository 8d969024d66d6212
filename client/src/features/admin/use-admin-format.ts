import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useDateTimeFormat } from "@/lib/use-date-time-format";
import { formatInteger } from "@/lib/format";

/** Amounts read like the ledger's "1.00", yet keep every one of PME's 18 decimals a transfer may carry. */
const TOKEN_FRACTION_DIGITS = { minimumFractionDigits: 2, maximumFractionDigits: 18 };

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Counts, PME amounts, balances, times and durations in the interface's current language; they follow a language switch. */
export function useAdminFormat() {
  const { t, i18n } = useTranslation();
  const { dateTime } = useDateTimeFormat();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(() => {
    const tokenFormat = new Intl.NumberFormat(language, TOKEN_FRACTION_DIGITS);
    const decimalFormat = new Intl.NumberFormat(language, { maximumFractionDigits: 18 });
    // Four decimals, or three significant digits for a dust amount, whichever says more: 9,999.9985 and 0.0000123.
    const balanceFormat = new Intl.NumberFormat(language, { maximumFractionDigits: 4, maximumSignificantDigits: 3, roundingPriority: "morePrecision" });
    const oneDecimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
    return {
      integer: (value: number) => formatInteger(value, language),
      // The API sends amounts as decimal strings; Intl formats those exactly, with no float rounding.
      tokens: (amount: string | number) => t("admin.tokenAmount", { amount: tokenFormat.format(amount as number | Intl.StringNumericLiteral) }),
      /** A threshold, or a balance compared with one, exactly as the API sends it, with no decimals added: "0.025", "1". */
      decimal: (amount: string) => decimalFormat.format(amount as Intl.StringNumericLiteral),
      /** A balance at a glance: the 18 decimals of a wallet's balance would bury its size. */
      balance: (amount: string) => balanceFormat.format(amount as Intl.StringNumericLiteral),
      dateTime,
      id: (id: number) => t("admin.idNumber", { id }),
      /**
       * A span of time as a person says it: "42 s", "3 min", "1 h 20 min", "1.2 days". Past a day the
       * hours stop mattering, past a minute the seconds.
       */
      duration: (seconds: number) => {
        // Rounded first, then sized: 59.6 s is "1 min" and 59 min 40 s is "1 h", never "60 s" or "60 min".
        if (Math.round(seconds) < MINUTE) return t("admin.duration.seconds", { value: formatInteger(Math.round(seconds), language) });
        const totalMinutes = Math.round(seconds / MINUTE);
        if (totalMinutes < HOUR / MINUTE) return t("admin.duration.minutes", { value: formatInteger(totalMinutes, language) });
        if (totalMinutes < DAY / MINUTE) {
          const hours = formatInteger(Math.floor(totalMinutes / 60), language);
          const minutes = totalMinutes % 60;
          if (minutes === 0) return t("admin.duration.hours", { value: hours });
          return t("admin.duration.hoursMinutes", { hours, minutes: formatInteger(minutes, language) });
        }
        const days = Math.round((seconds / DAY) * 10) / 10;
        return t("admin.duration.days", { count: days, value: oneDecimal.format(days) });
      },
    };
  }, [language, t, dateTime]);
}
