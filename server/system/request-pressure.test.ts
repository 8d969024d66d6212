import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { RequestPressure, type YieldSettings } from "./request-pressure.ts";

/** A delay no shared machine reaches by itself: only the test's own blocking goes past it. */
const UNREACHED_DELAY_MS = 400;

let pressure: RequestPressure | undefined;
afterEach(() => pressure?.close());

function pressureOf(settings: Partial<YieldSettings>, requestsInFlight: () => number) {
  pressure = new RequestPressure({ requestsInFlightMax: 2, eventLoopDelayMaxMs: UNREACHED_DELAY_MS, maxPauseMs: 5_000, ...settings }, requestsInFlight);
  return pressure;
}

const blockEventLoop = (ms: number) => {
  for (const until = Date.now() + ms; Date.now() < until; );
};

describe("background work yields to requests", () => {
  it("waits while more requests than the threshold are in flight, and goes on once they are answered", async () => {
    let inFlight = 3;
    const yielding = pressureOf({}, () => inFlight);
    expect(yielding.reason()).toBe("requests");
    setTimeout(() => (inFlight = 2), 300);
    const turn = await yielding.quietTurn(new AbortController().signal);
    expect(turn.gaveUpOn).toBeNull();
    expect(turn.waitedMs).toBeGreaterThanOrEqual(250);
    expect(turn.waitedMs).toBeLessThan(5_000);
  });

  it("waits while the event loop lags", async () => {
    const yielding = pressureOf({}, () => 0);
    yielding.reason();
    // The monitor samples on a timer: the delay shows once the loop has run on each side of the block.
    await sleep(50);
    blockEventLoop(UNREACHED_DELAY_MS * 2);
    await sleep(50);
    expect(yielding.reason()).toBe("event-loop");
    // Each look starts a new window: the lag is not held against the next one.
    expect(yielding.reason()).toBeNull();
  });

  it("waits no longer than its maximum pause, however busy the server stays", async () => {
    const yielding = pressureOf({ maxPauseMs: 400 }, () => 10);
    const started = Date.now();
    const turn = await yielding.quietTurn(new AbortController().signal);
    expect(turn.gaveUpOn).toBe("requests");
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("never waits with the pause off", async () => {
    const turn = await pressureOf({ maxPauseMs: 0 }, () => 10).quietTurn(new AbortController().signal);
    expect(turn).toEqual({ waitedMs: 0, gaveUpOn: null });
  });

  it("stops waiting when its work is stopped", async () => {
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(), 100);
    const started = Date.now();
    await pressureOf({ maxPauseMs: 60_000 }, () => 10).quietTurn(stopping.signal);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
