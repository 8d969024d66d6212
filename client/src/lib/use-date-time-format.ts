import { useMemo } from "react";
import { useTranslation } from "react-i18next";

const sameLocalDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/**
 * Instants with their time of day, in the interface's language and the reader's time zone, for the
 * dashboard's and the admin's timelines. Kept apart from useNumberFormat, which the first screens load:
 * only the lazily loaded screens pay for it (docs/decisions/0016).
 */
export function useDateTimeFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(() => {
    const dateTimeFormat = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    const timeFormat = new Intl.DateTimeFormat(language, { timeStyle: "short" });
    return {
      dateTime: (isoTime: string) => dateTimeFormat.format(new Date(isoTime)),
      /** The time alone when it falls today ("Next attempt at 10:05"), else with its date. */
      moment: (isoTime: string, now = new Date()) => {
        const instant = new Date(isoTime);
        return (sameLocalDay(instant, now) ? timeFormat : dateTimeFormat).format(instant);
      },
    };
  }, [language]);
}
