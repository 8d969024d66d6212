import { eq, sql } from "drizzle-orm";
import type { Db, Queryable } from "../db/client.ts";
import { payoutHealth } from "../db/schema.ts";

export type PayoutHealthRow = typeof payoutHealth.$inferSelect;

/**
 * Records what the sender saw; `since` moves only when the state changes, so the admin reads how
 * long payouts have been paused.
 */
export async function recordPayoutHealth(db: Db, row: Omit<PayoutHealthRow, "since">): Promise<void> {
  await db
    .insert(payoutHealth)
    .values({ ...row, since: row.checkedAt })
    .onConflictDoUpdate({
      target: payoutHealth.wallet,
      set: {
        ...row,
        since: sql`case when ${payoutHealth.state} = excluded.state then ${payoutHealth.since} else excluded.since end`,
      },
    });
}

export async function readPayoutHealth(db: Queryable, wallet: string): Promise<PayoutHealthRow | null> {
  const [row] = await db.select().from(payoutHealth).where(eq(payoutHealth.wallet, wallet));
  return row ?? null;
}
