import { eq, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { sessions } from "../db/schema.ts";

/** A session's data, unless it has expired (the database clock decides). */
export async function readSession(db: Queryable, sid: string): Promise<unknown> {
  const [row] = await db
    .select({ sess: sessions.sess })
    .from(sessions)
    .where(sql`${sessions.sid} = ${sid} and ${sessions.expire} > now()`);
  return row?.sess;
}

export async function upsertSession(db: Queryable, sid: string, sess: unknown, expire: Date): Promise<void> {
  await db
    .insert(sessions)
    .values({ sid, sess, expire })
    .onConflictDoUpdate({ target: sessions.sid, set: { sess, expire } });
}

export async function touchSession(db: Queryable, sid: string, expire: Date): Promise<void> {
  await db.update(sessions).set({ expire }).where(eq(sessions.sid, sid));
}

export async function deleteSession(db: Queryable, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

export async function deleteExpiredSessions(db: Queryable, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expire, now));
}

/**
 * Signs an account out everywhere but the session named: Passport keeps the account's id in the
 * session's data (`passport.user`), which is where the account's sessions are found.
 */
export async function deleteAccountSessions(db: Queryable, userId: string, exceptSid: string | undefined): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(sql`${sessions.sess}->'passport'->>'user' = ${userId} and ${sessions.sid} <> ${exceptSid ?? ""}`)
    .returning({ sid: sessions.sid });
  return deleted.length;
}

/** The account's unexpired sessions (the settings screen's list of signed-in browsers). */
export async function listAccountSessions(db: Queryable, userId: string): Promise<Array<{ sid: string; sess: unknown; expire: Date }>> {
  return db
    .select({ sid: sessions.sid, sess: sessions.sess, expire: sessions.expire })
    .from(sessions)
    .where(sql`${sessions.sess}->'passport'->>'user' = ${userId} and ${sessions.expire} > now()`);
}
