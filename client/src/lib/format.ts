const THOUSAND = 1_000;
const MILLION = 1_000_000;

/** Always one decimal, e.g. an average rating out of 5: "4.0", "4,5". */
export function formatOneDecimal(value: number, language: string): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/**
 * A count for headline figures: below 1000 as it is, then one-decimal thousands ("1.3K", "1,3K" in
 * es/fr) as spec §9 asks, and one-decimal millions once the thousands would read "1000.0K".
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
