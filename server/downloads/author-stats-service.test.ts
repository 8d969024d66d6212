import { describe, expect, it } from "vitest";
import { lastMonths } from "./author-stats-service.ts";

describe("lastMonths", () => {
  it("gives twelve months ending with the current one, across a year boundary", () => {
    const months = lastMonths(new Date("2026-03-15T10:00:00Z"));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe("2025-04");
    expect(months[11]).toBe("2026-03");
  });

  it("uses UTC months", () => {
    expect(lastMonths(new Date("2026-01-01T00:30:00Z"), 1)).toEqual(["2026-01"]);
  });
});
