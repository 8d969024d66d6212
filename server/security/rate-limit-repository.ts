import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { rateLimitHits } from "../db/schema.ts";

/** A key's hits in its current window; the database clock decides when a window ends, not each process's. */
export async function readHits(db: Queryable, key: string): Promise<{ totalHits: number; resetTime: Date } | undefined> {
  const [row] = await db
    .select({ totalHits: rateLimitHits.hits, resetTime: rateLimitHits.resetAt })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.resetAt, sql`now()`)));
  return row;
}

const MAX_HITS = 2_147_483_647;

/**
 * One upsert per hit: a key's window starts at its first hit and counting restarts once it is over.
 * A hit weighs 1, or `weight` where a limit counts an amount (the reader's bytes, security/rate-limits.ts).
 */
export async function incrementHits(db: Queryable, key: string, windowMs: number, weight = 1): Promise<{ totalHits: number; resetTime: Date }> {
  const windowEnds = sql`now() + ${windowMs} * interval '1 millisecond'`;
  const windowIsOver = sql`${rateLimitHits.resetAt} <= now()`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, hits: weight, resetAt: windowEnds })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        // Saturates at the column's largest integer: a fetcher refused over and over must meet a 429, never an overflow's 500.
        hits: sql`case when ${windowIsOver} then excluded.hits else least(${rateLimitHits.hits}::bigint + excluded.hits, ${MAX_HITS}) end`,
        resetAt: sql`case when ${windowIsOver} then excluded.reset_at else ${rateLimitHits.resetAt} end`,
      },
    })
    .returning({ totalHits: rateLimitHits.hits, resetTime: rateLimitHits.resetAt });
  return row!;
}

export async function decrementHits(db: Queryable, key: string): Promise<void> {
  await db
    .update(rateLimitHits)
    .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.resetAt, sql`now()`)));
}

export async function deleteHits(db: Queryable, key: string): Promise<void> {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
}

export async function deleteExpiredHits(db: Queryable): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.resetAt, sql`now()`));
}
