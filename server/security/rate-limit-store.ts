import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from "express-rate-limit";
import type { Db } from "../db/client.ts";
import { rateLimitHits } from "../db/schema.ts";

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
    const [row] = await this.db
      .select({ totalHits: rateLimitHits.hits, resetTime: rateLimitHits.resetAt })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, this.keyOf(key)), gt(rateLimitHits.resetAt, sql`now()`)));
    return row;
  }

  async increment(key: string): Promise<IncrementResponse> {
    await this.sweepExpired();
    const windowEnds = sql`now() + ${this.windowMs} * interval '1 millisecond'`;
    const windowIsOver = sql`${rateLimitHits.resetAt} <= now()`;
    const [row] = await this.db
      .insert(rateLimitHits)
      .values({ key: this.keyOf(key), hits: 1, resetAt: windowEnds })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          hits: sql`case when ${windowIsOver} then 1 else ${rateLimitHits.hits} + 1 end`,
          resetAt: sql`case when ${windowIsOver} then excluded.reset_at else ${rateLimitHits.resetAt} end`,
        },
      })
      .returning({ totalHits: rateLimitHits.hits, resetTime: rateLimitHits.resetAt });
    return row!;
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .update(rateLimitHits)
      .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
      .where(and(eq(rateLimitHits.key, this.keyOf(key)), gt(rateLimitHits.resetAt, sql`now()`)));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, this.keyOf(key)));
  }

  private keyOf(key: string): string {
    return `${this.prefix}${key}`;
  }

  /** Windows that are over are only dead weight; clearing them now and then keeps the table small. */
  private async sweepExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db.delete(rateLimitHits).where(lt(rateLimitHits.resetAt, sql`now()`));
  }
}
