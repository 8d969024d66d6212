import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * When background work (the cover queue) steps aside for requests (docs/decisions/0073): before each
 * step it waits while more than `requestsInFlightMax` requests are being answered or the event loop
 * lags, but never longer than `maxPauseMs`, so that the work is never starved for good.
 */
export interface YieldSettings {
  /** More requests in flight than this, and the next step waits. */
  requestsInFlightMax: number;
  /** The event loop's delay (its 99th percentile since the last look) above this, and the next step waits. */
  eventLoopDelayMaxMs: number;
  /** The longest one step waits; 0 turns the pause off (each step starts at once). */
  maxPauseMs: number;
}

/** How often a waiting step looks again. */
const LOOK_EVERY_MS = 100;
/** The delay monitor's sampling, in ms: finer than the smallest delay worth waiting for. */
const DELAY_RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

export type PressureReason = "requests" | "event-loop";

/**
 * The server's load as background work sees it: the requests it is answering (counted by the HTTP
 * server, server/server.ts) and how late its event loop runs (`monitorEventLoopDelay`).
 */
export class RequestPressure {
  private readonly delays: IntervalHistogram | null;

  constructor(
    private readonly settings: YieldSettings,
    private readonly requestsInFlight: () => number,
  ) {
    // Off, it measures nothing: no sampling timer for a pause that never happens.
    this.delays = settings.maxPauseMs > 0 ? monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS }) : null;
    this.delays?.enable();
  }

  /** Why background work should wait now, or null; each look starts the next delay window. */
  reason(): PressureReason | null {
    if (this.requestsInFlight() > this.settings.requestsInFlightMax) return "requests";
    if (!this.delays) return null;
    const delayMs = this.delays.count > 0 ? this.delays.percentile(99) / NS_PER_MS : 0;
    this.delays.reset();
    return delayMs > this.settings.eventLoopDelayMaxMs ? "event-loop" : null;
  }

  /**
   * Resolves once the server is quiet, after `maxPauseMs` at the latest, or at once when `signal`
   * aborts; answers how long it waited and, if it gave up waiting, the last reason.
   */
  async quietTurn(signal: AbortSignal): Promise<{ waitedMs: number; gaveUpOn: PressureReason | null }> {
    const started = Date.now();
    if (this.settings.maxPauseMs === 0) return { waitedMs: 0, gaveUpOn: null };
    for (let reason = this.reason(); reason !== null && !signal.aborted; reason = this.reason()) {
      const waitedMs = Date.now() - started;
      if (waitedMs >= this.settings.maxPauseMs) return { waitedMs, gaveUpOn: reason };
      await sleep(Math.min(LOOK_EVERY_MS, this.settings.maxPauseMs - waitedMs), undefined, { signal }).catch(() => {});
    }
    return { waitedMs: Date.now() - started, gaveUpOn: null };
  }

  /** Stops measuring the event loop. */
  close(): void {
    this.delays?.disable();
  }
}
