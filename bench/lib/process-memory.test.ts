import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { sampleMemory } from "./process-memory.ts";

const MEGABYTE = 1024 * 1024;
/** Fills memory that is garbage as soon as this returns. */
const touchMemory = (bytes: number) => Buffer.alloc(bytes, 1).length;

describe("sampleMemory", () => {
  it("sees a process's resident memory grow by what it touched, even between two samples", async () => {
    // Samples far apart: the peak must come from the kernel's high-water mark, not from a lucky sample.
    const sampling = sampleMemory(process.pid, 10_000);
    expect(touchMemory(64 * MEGABYTE)).toBe(64 * MEGABYTE);
    await sleep(10);
    const figures = sampling.stop();
    expect(figures.growthBytes).toBeGreaterThanOrEqual(60 * MEGABYTE);
    expect(figures.peakBytes - figures.beforeBytes).toBe(figures.growthBytes);
  });
});
