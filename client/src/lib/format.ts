const THOUSAND = 1_000;
const MILLION = 1_000_000;

/**
 * Each number and date format made once per language and options: a new Intl format costs about a
 * millisecond (tens for a page's first), and a screen of book cards asked for several per card, all on
 * the first render's main thread (docs/decisions/0080).
 */
const madeFormats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function madeOnce<Format extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => Format): Format {
  let made = madeFormats.get(key) as Format | undefined;
  if (!made) {
    made = make();
    madeFormats.set(key, made);
  }
  return made;
}
const numberFormat = (language: string, options: Intl.NumberFormatOptions) =>
  madeOnce(`number ${language} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(language, options));
const dateFormat = (language: string, options: Intl.DateTimeFormatOptions) =>
  madeOnce(`date ${language} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(language, options));

/** Always one decimal, e.g. an average rating out of 5: "4.0", "4,5". */
export function formatOneDecimal(value: number, language: string): string {
  return numberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
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
  return numberFormat(language, { maximumFractionDigits: 0 }).format(value);
}

/** A token amount as the API sends it ("1.00"), with two decimals in the reader's language: 1.00 / 1,00. */
export function formatTokenAmount(amount: string, language: string): string {
  return numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(amount));
}

/** A calendar date from an ISO timestamp, e.g. "Mar 1, 2025" / "1 mar 2025" / "1 mars 2025". */
export function formatDate(isoTimestamp: string, language: string): string {
  return dateFormat(language, { dateStyle: "medium" }).format(new Date(isoTimestamp));
}

/** The calendar day of an instant in UTC, spelled out: "April 1, 2026" / "1 de abril de 2026" / "1 avril 2026". */
export function formatLongDate(isoTimestamp: string, language: string): string {
  return dateFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(isoTimestamp));
}

export type MonthWidth = "long" | "short" | "narrow";

/** A "YYYY-MM" month (UTC, as the API counts them) by name: "Mar", "mar", "mars"; "long" adds the year. */
export function formatMonth(month: string, language: string, width: MonthWidth): string {
  const firstDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  const options: Intl.DateTimeFormatOptions = width === "long" ? { month: "long", year: "numeric" } : { month: width };
  return dateFormat(language, { ...options, timeZone: "UTC" }).format(firstDay);
}

/** A transaction hash short enough for a list, long enough to tell two apart: 0x1234abcd…9f8e7d6c. */
export function shortHash(hash: string): string {
  return hash.length <= 20 ? hash : `${hash.slice(0, 10)}…${hash.slice(-8)}`;
}
