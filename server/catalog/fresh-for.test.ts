import { describe, expect, it } from "vitest";
import { freshFor } from "./fresh-for.ts";

describe("freshFor", () => {
  it("reads once per period, sharing the answer and any read in flight", async () => {
    let clock = 0;
    let reads = 0;
    const read = freshFor(5_000, async () => ++reads, () => clock);
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    clock = 4_999;
    expect(await read()).toBe(1);
    clock = 5_000;
    expect(await read()).toBe(2);
    expect(reads).toBe(2);
  });

  it("keeps no failure: the next call reads again", async () => {
    let attempts = 0;
    const read = freshFor(5_000, async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("database away");
      return "totals";
    }, () => 0);
    await expect(read()).rejects.toThrow("database away");
    expect(await read()).toBe("totals");
    expect(attempts).toBe(2);
  });
});
