import { describe, expect, it } from "vitest";
import { freshFor, readAfterAsked } from "./fresh-for.ts";

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

describe("readAfterAsked", () => {
  /** A read the test ends by hand, numbered in the order they started. */
  function manualReads() {
    const pending: Array<(value: number) => void> = [];
    const read = readAfterAsked(() => new Promise<number>((resolve) => pending.push(resolve)));
    const end = async (index: number) => {
      pending[index]!(index + 1);
      // Let the next read, if any, start.
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { read, pending, end };
  }

  it("answers callers arriving during a read with the next read, one read in flight at a time", async () => {
    const { read, pending, end } = manualReads();
    const first = read();
    const during = [read(), read()];
    expect(pending).toHaveLength(1);
    await end(0);
    expect(await first).toBe(1);
    expect(pending).toHaveLength(2);
    const duringSecond = read();
    await end(1);
    expect(await Promise.all(during)).toEqual([2, 2]);
    await end(2);
    expect(await duringSecond).toBe(3);
    expect(pending).toHaveLength(3);
  });

  it("reads again for a caller after the last read ended, and keeps no failure", async () => {
    let reads = 0;
    const read = readAfterAsked(async () => {
      reads += 1;
      if (reads === 1) throw new Error("database away");
      return reads;
    });
    await expect(read()).rejects.toThrow("database away");
    expect(await read()).toBe(2);
    expect(await read()).toBe(3);
  });
});
