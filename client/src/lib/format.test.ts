import { describe, expect, it } from "vitest";
import { formatCount, formatInteger, formatMonth, formatOneDecimal, formatTokenAmount, shortHash } from "@/lib/format";

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
