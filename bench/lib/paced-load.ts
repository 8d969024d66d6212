import { Agent, request as httpRequest } from "node:http";
import { performance } from "node:perf_hooks";

/**
 * An open-loop load at a steady rate, as wrk2 and k6's constant-arrival-rate make it: request i is
 * due at `i / rate` seconds after the start, whatever happened to the ones before, and its latency
 * counts from when it was due, so a request that waited for a free connection (the server fell
 * behind) is charged that wait. autocannon's `overallRate` is not this: each connection sends its
 * share of a second's requests back to back at the start of every second, so "200 a second" arrives
 * as a burst of 200 (docs/decisions/0082-steady-rate-load.md).
 */
export interface PacedLoad {
  url: string;
  headers?: Record<string, string>;
  /** Requests per second, spread evenly. */
  rate: number;
  seconds: number;
  /** At most this many requests in flight (kept-alive connections); later ones wait their turn and are charged for it. */
  connections: number;
  /** A request still unanswered this long after it was due fails the load. */
  timeoutMs?: number;
}

export interface PacedFigures {
  offered: number;
  /** Requests answered per second, from the start to the last answer: a server that falls behind answers fewer than offered. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
/** A tenth of a millisecond is finer than the timers that pace the load. */
const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** Refuses the whole load on any error, timeout or non-2xx answer, as `measureSlice` does: a server failing fast would look quick. */
export async function runPacedLoad({ url, headers, rate, seconds, connections, timeoutMs = 10_000 }: PacedLoad): Promise<PacedFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight: Array<Promise<void>> = [];
  const start = performance.now();
  let lastAnswerAt = start;

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const call = httpRequest(url, { agent, headers, timeout: timeoutMs }, (answer) => {
        answer.resume();
        answer.on("end", () => {
          if (answer.statusCode! < 200 || answer.statusCode! >= 300) failures.push(`status ${answer.statusCode}`);
          else latencies.push(performance.now() - dueAt);
          lastAnswerAt = performance.now();
          resolve();
        });
      });
      call.on("timeout", () => call.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      call.on("error", (error) => {
        failures.push(error.message);
        resolve();
      });
      call.end();
    });

  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    // Every request already due goes now: a late timer must not thin the offered rate.
    for (; sent < total && start + (sent * 1000) / rate <= now; sent += 1) inFlight.push(send(start + (sent * 1000) / rate));
    if (sent < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + (sent * 1000) / rate - performance.now())));
  }
  await Promise.all(inFlight);
  agent.destroy();

  if (failures.length > 0) throw new Error(`GET ${url} at ${rate} req/s: ${failures.length} of ${total} requests failed (${[...new Set(failures)].slice(0, 3).join("; ")})`);
  latencies.sort((a, b) => a - b);
  return { offered: rate, requestsPerSecond: (latencies.length * 1000) / Math.max(lastAnswerAt - start, seconds * 1000), p50Ms: tenths(percentile(latencies, 0.5)), p99Ms: tenths(percentile(latencies, 0.99)), maxMs: tenths(latencies.at(-1)!) };
}
