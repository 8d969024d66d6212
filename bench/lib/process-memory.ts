import { readFileSync, writeFileSync } from "node:fs";

/** A field of /proc/<pid>/status in kB ("VmRSS", "VmHWM"), in bytes. */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) * 1024;
}

export interface MemoryFigures {
  /** Resident memory when sampling started. */
  beforeBytes: number;
  /** The highest resident memory until it stopped. */
  peakBytes: number;
  growthBytes: number;
  samples: number;
}

export interface MemorySampling {
  stop(): MemoryFigures;
}

/**
 * Samples a process's resident memory (Linux /proc) every `everyMs` until stopped. The peak is the
 * kernel's own high-water mark, reset when sampling starts, so a spike between two samples counts
 * too; the samples are kept as a check on it.
 */
export function sampleMemory(pid: number, everyMs = 20): MemorySampling {
  // Writing 5 to clear_refs resets VmHWM to the current resident size (Linux 4.0+).
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
  const beforeBytes = statusBytes(pid, "VmRSS");
  let sampledPeak = beforeBytes;
  let samples = 1;
  // A process that ends while sampled must not end the benchmark from a timer, where the error that
  // stopped it would be lost: sampling stops, and stop() says what happened.
  let failure: Error | undefined;
  const timer = setInterval(() => {
    try {
      sampledPeak = Math.max(sampledPeak, statusBytes(pid, "VmRSS"));
      samples += 1;
    } catch (error) {
      failure = new Error(`Process ${pid} ended while its memory was sampled: ${(error as Error).message}`);
      clearInterval(timer);
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      if (failure) throw failure;
      const peakBytes = Math.max(sampledPeak, statusBytes(pid, "VmHWM"));
      return { beforeBytes, peakBytes, growthBytes: peakBytes - beforeBytes, samples };
    },
  };
}
