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

/**
 * What Intl.NumberFormat writes in the interface's languages (CLDR's separators), written out: a page's
 * first Intl format costs 15 to 130 ms while ICU loads its data, four times that on a slow phone, and
 * it fell in the first render of the landing page, the catalog and a book's page (docs/decisions/0086).
 * `minimumGroupingDigits` 2: Spanish groups from five digits on ("1234", "12.345"). format.test.ts
 * holds every language's output to Intl's; another language goes to Intl.
 */
const NUMBER_SYMBOLS: Readonly<Record<string, { decimal: string; group: string; minimumGroupingDigits: number }>> = {
  en: { decimal: ".", group: ",", minimumGroupingDigits: 1 },
  es: { decimal: ",", group: ".", minimumGroupingDigits: 2 },
  fr: { decimal: ",", group: "\u202f", minimumGroupingDigits: 1 },
};
/** The digits of a number as its shortest decimal spelling: what ICU rounds, not the double's exact value (0.95 → "1.0"). */
const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A number rounded as Intl rounds it (half away from zero, on its shortest decimal spelling), with
 * `minimumDigits` to `maximumDigits` decimals, in a language of NUMBER_SYMBOLS; undefined for another
 * language or a value JavaScript spells with an exponent, NaN, the infinities and negative zero,
 * which are left to Intl.
 */
function writtenOut(value: number, language: string, minimumDigits: number, maximumDigits: number): string | undefined {
  const symbols = NUMBER_SYMBOLS[language];
  const spelled = PLAIN_DECIMAL.exec(String(Math.abs(value)));
  if (!symbols || !spelled || Object.is(value, -0)) return undefined;
  const [, whole = "", decimals = ""] = spelled;
  const roundsUp = (decimals[maximumDigits] ?? "0") >= "5";
  const kept = BigInt(`${whole}${decimals.slice(0, maximumDigits).padEnd(maximumDigits, "0")}`) + (roundsUp ? 1n : 0n);
  const digits = kept.toString().padStart(maximumDigits + 1, "0");
  const roundedWhole = digits.slice(0, digits.length - maximumDigits);
  let shownDecimals = digits.slice(digits.length - maximumDigits);
  while (shownDecimals.length > minimumDigits && shownDecimals.endsWith("0")) shownDecimals = shownDecimals.slice(0, -1);
  const grouped = roundedWhole.length >= 3 + symbols.minimumGroupingDigits ? roundedWhole.replace(/\B(?=(\d{3})+$)/g, symbols.group) : roundedWhole;
  return `${value < 0 ? "-" : ""}${grouped}${shownDecimals ? `${symbols.decimal}${shownDecimals}` : ""}`;
}

function formatDecimals(value: number, language: string, minimumDigits: number, maximumDigits: number): string {
  return (
    writtenOut(value, language, minimumDigits, maximumDigits) ??
    numberFormat(language, { minimumFractionDigits: minimumDigits, maximumFractionDigits: maximumDigits }).format(value)
  );
}

/** Always one decimal, e.g. an average rating out of 5: "4.0", "4,5". */
export function formatOneDecimal(value: number, language: string): string {
  return formatDecimals(value, language, 1, 1);
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
  return formatDecimals(value, language, 0, 0);
}

/** A token amount as the API sends it ("1.00"), with two decimals in the reader's language: 1.00 / 1,00. */
export function formatTokenAmount(amount: string, language: string): string {
  return formatDecimals(Number(amount), language, 2, 2);
}

/** Intl's short units of a file's size, and what stands between number and unit, in NUMBER_SYMBOLS' languages. */
const FILE_SIZE_UNITS: Readonly<Record<string, { kilobyte: string; megabyte: string; space: string }>> = {
  en: { kilobyte: "kB", megabyte: "MB", space: " " },
  es: { kilobyte: "kB", megabyte: "MB", space: " " },
  fr: { kilobyte: "ko", megabyte: "Mo", space: "\u202f" },
};

/** A file's size as people read it, in kB below a megabyte, with at most one decimal: "2.4 MB", "2,4 Mo", "12 kB". */
export function formatFileSize(bytes: number, language: string): string {
  const megabytes = bytes / MILLION;
  const [value, unit] = megabytes >= 1 ? ([megabytes, "megabyte"] as const) : ([bytes / THOUSAND, "kilobyte"] as const);
  const units = FILE_SIZE_UNITS[language];
  const number = units && writtenOut(value, language, 0, 1);
  if (units && number !== undefined) return `${number}${units.space}${units[unit]}`;
  return numberFormat(language, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(value);
}

/** A calendar date from an ISO timestamp, e.g. "Mar 1, 2025" / "1 mar 2025" / "1 mars 2025". */
export function formatDate(isoTimestamp: string, language: string): string {
  return dateFormat(language, { dateStyle: "medium" }).format(new Date(isoTimestamp));
}

/** Intl's long dates in NUMBER_SYMBOLS' languages, written out for the same reason as the numbers (day, month 0 to 11, year). */
const LONG_DATES: Readonly<Record<string, (day: number, month: number, year: number) => string>> = {
  en: (day, month, year) => `${ENGLISH_MONTHS[month]} ${day}, ${year}`,
  es: (day, month, year) => `${day} de ${SPANISH_MONTHS[month]} de ${year}`,
  fr: (day, month, year) => `${day} ${FRENCH_MONTHS[month]} ${year}`,
};
const ENGLISH_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SPANISH_MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
const FRENCH_MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"];
/** Years Intl writes as plain four digits. */
const FOUR_DIGIT_YEARS = { first: 1000, last: 9999 };

/** The calendar day of an instant in UTC, spelled out: "April 1, 2026" / "1 de abril de 2026" / "1 avril 2026". */
export function formatLongDate(isoTimestamp: string, language: string): string {
  const instant = new Date(isoTimestamp);
  const year = instant.getUTCFullYear();
  const writeLongDate = LONG_DATES[language];
  if (writeLongDate && year >= FOUR_DIGIT_YEARS.first && year <= FOUR_DIGIT_YEARS.last) return writeLongDate(instant.getUTCDate(), instant.getUTCMonth(), year);
  return dateFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(instant);
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
