import { describe, expect, it } from "vitest";
import { formatCount, formatFileSize, formatInteger, formatLongDate, formatMonth, formatOneDecimal, formatTokenAmount, shortHash } from "@/lib/format";

describe("formatCount", () => {
  it("shows counts below 1000 as they are", () => {
    expect(formatCount(0, "en")).toBe("0");
    expect(formatCount(999, "en")).toBe("999");
  });

  it("shows 1000 and more as one-decimal thousands (docs/product.md#formats)", () => {
    expect(formatCount(1000, "en")).toBe("1.0K");
    expect(formatCount(1250, "en")).toBe("1.3K");
    expect(formatCount(1249, "en")).toBe("1.2K");
    expect(formatCount(98_760, "en")).toBe("98.8K");
  });

  it("uses the language's decimal separator", () => {
    expect(formatCount(1250, "es")).toBe("1,3K");
    expect(formatCount(1000, "fr")).toBe("1,0K");
  });

  it("switches to millions rather than writing 1000.0K", () => {
    expect(formatCount(999_949, "en")).toBe("999.9K");
    expect(formatCount(999_950, "en")).toBe("1.0M");
    expect(formatCount(2_345_678, "fr")).toBe("2,3M");
  });
});

describe("formatInteger and formatOneDecimal", () => {
  it("group and round in the reader's language", () => {
    expect(formatInteger(12_345, "en")).toBe("12,345");
    expect(formatInteger(12_345, "es")).toBe("12.345");
    expect(formatInteger(12_345, "fr")).toBe("12\u202f345");
    expect(formatOneDecimal(4, "en")).toBe("4.0");
    expect(formatOneDecimal(4.25, "es")).toBe("4,3");
  });
});

describe("formatTokenAmount, formatMonth and shortHash", () => {
  it("writes a PME amount with two decimals in the reader's language", () => {
    expect(formatTokenAmount("1.00", "en")).toBe("1.00");
    expect(formatTokenAmount("12.5", "fr")).toBe("12,50");
  });

  it("names a YYYY-MM month whatever the reader's time zone", () => {
    expect(formatMonth("2025-01", "en", "short")).toBe("Jan");
    expect(formatMonth("2025-12", "es", "long")).toBe("diciembre de 2025");
    expect(formatMonth("2025-03", "fr", "narrow")).toBe("M");
  });

  it("shortens a transaction hash to its two ends", () => {
    expect(shortHash(`0x${"12".repeat(16)}${"ab".repeat(16)}`)).toBe("0x12121212…abababab");
  });
});

describe("the numbers and dates written without Intl (docs/decisions/0086)", () => {
  const LANGUAGES = ["en", "es", "fr"];
  const intlNumber = (language: string, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(language, options);
  /** Whole numbers around every grouping boundary, halves and near-halves, negatives and values that round to zero. */
  const VALUES = [
    ...[0, 1, 9, 10, 99, 100, 999, 1000, 1234, 9999, 10_000, 12_345, 99_999, 100_000, 999_999, 1_000_000, 12_345_678, 1_234_567_890, 2 ** 53],
    ...[0.04, 0.05, 0.25, 0.95, 1.005, 2.45, 4.25, 4.35, 4.449, 4.5, 999.95, 1234.56, 9999.5, 12_345.678],
    // Every thousandth up to 5, and an average of ratings as the API computes it: the halves a double cannot hold exactly.
    ...Array.from({ length: 5001 }, (_, thousandths) => thousandths / 1000),
    ...Array.from({ length: 300 }, (_, ratings) => (ratings * 4.7 + 3) / (ratings + 1)),
  ].flatMap((value) => [value, -value]);

  it("writes integers, one and two decimals as Intl.NumberFormat does", () => {
    for (const language of LANGUAGES) {
      const integer = intlNumber(language, { maximumFractionDigits: 0 });
      const oneDecimal = intlNumber(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      const twoDecimals = intlNumber(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      for (const value of [...VALUES, Number.NaN, Infinity, -Infinity, 1e21, 1e-7]) {
        expect(formatInteger(value, language), `${value} ${language}`).toBe(integer.format(value));
        expect(formatOneDecimal(value, language), `${value} ${language}`).toBe(oneDecimal.format(value));
        // The API's amounts are strings: "-0" reads as 0.
        expect(formatTokenAmount(String(value), language), `${value} ${language}`).toBe(twoDecimals.format(Number(String(value))));
      }
    }
  });

  it("writes file sizes as Intl's short units do", () => {
    for (const language of LANGUAGES) {
      for (const bytes of [0, 12, 999, 1000, 12_340, 999_949, 999_999, 1_000_000, 2_400_000, 2_450_000, 123_456_789, 5_000_000_000]) {
        const [value, unit] = bytes >= 1_000_000 ? [bytes / 1_000_000, "megabyte"] : [bytes / 1000, "kilobyte"];
        expect(formatFileSize(bytes, language), `${bytes} ${language}`).toBe(intlNumber(language, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(value));
      }
    }
    expect(formatFileSize(2_400_000, "fr")).toBe("2,4\u202fMo");
  });

  it("spells out every month's long date as Intl.DateTimeFormat does, in UTC", () => {
    for (const language of LANGUAGES) {
      const intlDate = new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" });
      for (let month = 0; month < 12; month += 1) {
        for (const [year, day, hour] of [[2026, 1, 0], [2025, 28, 23], [1999, 31, 12], [9999, 15, 6], [999, 3, 0]] as const) {
          const instant = new Date(Date.UTC(year, month, day, hour));
          instant.setUTCFullYear(year);
          expect(formatLongDate(instant.toISOString(), language), instant.toISOString()).toBe(intlDate.format(instant));
        }
      }
    }
  });

  it("leaves other languages to Intl", () => {
    expect(formatInteger(12_345, "de")).toBe("12.345");
    expect(formatOneDecimal(4.5, "de")).toBe("4,5");
    expect(formatLongDate("2026-04-01T00:00:00Z", "de")).toBe("1. April 2026");
  });
});
