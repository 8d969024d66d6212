const THOUSAND = 1_000;
const MILLION = 1_000_000;

/** Always one decimal, e.g. an average rating out of 5: "4.0", "4,5". */
export function formatOneDecimal(value: number, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/**
 * A count for headline figures: below 1000 as it is, then one-decimal thousands ("1.3K", "1,3K" in
 * es/fr) as docs/product.md#formats says, and one-decimal millions once the thousands would read "1000.0K".
 */
export function formatCount(value: number, language: string): string {
  if (Math.abs(value) < THOUSAND) return formatInteger(value, language);
  const thousands = Math.round(value / 100) / 10;
  if (Math.abs(thousands) < THOUSAND) return `${formatOneDecimal(thousands, language)}K`;
  return `${formatOneDecimal(value / MILLION, language)}M`;
}

/** A whole number with the language's grouping, e.g. 12,345 / 12.345 / 12 345. */
export function formatInteger(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(value);
}

/** A token amount as the API sends it ("1.00"), with two decimals in the reader's language: 1.00 / 1,00. */
export function formatTokenAmount(amount: string, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(amount));
}

/** A calendar date from an ISO timestamp, e.g. "Mar 1, 2025" / "1 mar 2025" / "1 mars 2025". */
export function formatDate(isoTimestamp: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(isoTimestamp));
}

/** The calendar day of an instant in UTC, spelled out: "April 1, 2026" / "1 de abril de 2026" / "1 avril 2026". */
export function formatLongDate(isoTimestamp: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(isoTimestamp));
}

export type MonthWidth = "long" | "short" | "narrow";

/** A "YYYY-MM" month (UTC, as the API counts them) by name: "Mar", "mar", "mars"; "long" adds the year. */
export function formatMonth(month: string, language: string, width: MonthWidth): string {
  const firstDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  const options: Intl.DateTimeFormatOptions = width === "long" ? { month: "long", year: "numeric" } : { month: width };
  return new Intl.DateTimeFormat(language, { ...options, timeZone: "UTC" }).format(firstDay);
}

/** A transaction hash short enough for a list, long enough to tell two apart: 0x1234abcd…9f8e7d6c. */
export function shortHash(hash: string): string {
  return hash.length <= 20 ? hash : `${hash.slice(0, 10)}…${hash.slice(-8)}`;
}
