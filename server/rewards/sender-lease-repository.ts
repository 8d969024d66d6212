import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { payoutLeases } from "../db/schema.ts";
import { isProcessRunning } from "../system/processes.ts";

/** Hostnames are cut so that a holder name always fits its column. */
const HOST = hostname().slice(0, 50);

/** A new sender's lease holder name: its host and process id, then a unique part. */
export function newSenderLeaseHolder(): string {
  return `${HOST}:${process.pid}:${randomUUID()}`;
}

/**
 * A holder that was a process of this host and is no longer running (a server killed or crashed):
 * its lease need not be waited out. A pid taken by another process since (this one included)
 * only makes us wait for the lease to run out, as before.
 */
function isDeadLocalHolder(holder: string): boolean {
  const [host, pid] = holder.split(":");
  return host === HOST && /^\d+$/.test(pid ?? "") && !isProcessRunning(Number(pid));
}

/**
 * Takes or renews the sender lease of a hot wallet; false while another live process holds it.
 * A lease left by a dead process of this host is taken over at once, so payouts go on right
 * after a restart instead of once the lease has run out. The database's clock both sets and
 * judges the expiry: a host whose clock ran behind would otherwise write a lease already over for
 * the others, and one ahead a lease that outlives its holder by as much (docs/decisions/0044).
 */
export async function holdSenderLease(db: Db, wallet: string, holder: string, ttlMs: number): Promise<boolean> {
  const expiresAt = sql`now() + ${ttlMs} * interval '1 millisecond'`;
  const [current] = await db.select({ holder: payoutLeases.holder }).from(payoutLeases).where(eq(payoutLeases.wallet, wallet));
  const abandoned = current && current.holder !== holder && isDeadLocalHolder(current.holder) ? current.holder : null;
  const rows = await db
    .insert(payoutLeases)
    .values({ wallet, holder, expiresAt })
    .onConflictDoUpdate({
      target: payoutLeases.wallet,
      set: { holder, expiresAt },
      setWhere: or(
        eq(payoutLeases.holder, holder),
        lte(payoutLeases.expiresAt, sql`now()`),
        ...(abandoned ? [eq(payoutLeases.holder, abandoned)] : []),
      ),
    })
    .returning({ holder: payoutLeases.holder });
  return rows[0]?.holder === holder;
}

/**
 * Renews the sender lease this holder has, in one statement: what an idle sender does to stay the
 * sender (docs/decisions/0085). False when another process took it meanwhile.
 */
export async function renewSenderLease(db: Db, wallet: string, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await db
    .update(payoutLeases)
    .set({ expiresAt: sql`now() + ${ttlMs} * interval '1 millisecond'` })
    .where(and(eq(payoutLeases.wallet, wallet), eq(payoutLeases.holder, holder)))
    .returning({ holder: payoutLeases.holder });
  return rows.length > 0;
}

export async function releaseSenderLease(db: Db, wallet: string, holder: string): Promise<void> {
  await db.delete(payoutLeases).where(and(eq(payoutLeases.wallet, wallet), eq(payoutLeases.holder, holder)));
}
