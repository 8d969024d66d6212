import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from "express-rate-limit";
import type { Db } from "../db/client.ts";
import { decrementHits, deleteExpiredHits, deleteHits, incrementHits, readHits } from "./rate-limit-repository.ts";

const SWEEP_EVERY_MS = 60_000;

/**
 * express-rate-limit's store on the app's own database (PGlite or PostgreSQL), so several server
 * processes count the same hits. The database clock decides when a window ends, not each process's.
 * One upsert per hit: a key's window starts at its first hit and counting restarts once it is over.
 */
export class DatabaseRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return readHits(this.db, this.keyOf(key));
  }

  async increment(key: string): Promise<IncrementResponse> {
    await this.sweepExpired();
    return incrementHits(this.db, this.keyOf(key), this.windowMs);
  }

  async decrement(key: string): Promise<void> {
    await decrementHits(this.db, this.keyOf(key));
  }

  async resetKey(key: string): Promise<void> {
    await deleteHits(this.db, this.keyOf(key));
  }

  private keyOf(key: string): string {
    return `${this.prefix}${key}`;
  }

  /** Windows that are over are only dead weight; clearing them now and then keeps the table small. */
  private async sweepExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await deleteExpiredHits(this.db);
  }
}
