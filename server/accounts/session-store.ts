import session from "express-session";
import type { Db } from "../db/client.ts";
import { deleteExpiredSessions, deleteSession, readSession, touchSession, upsertSession } from "./sessions-repository.ts";
import { logger } from "../system/logger.ts";

const PRUNE_EVERY_MS = 15 * 60 * 1000;

/**
 * Hands the outcome to express-session's callback. The callback is optional: without one, a failure is
 * logged, where a bare `.then(done, callback)` would leave an unhandled rejection that ends the process.
 */
function settle(work: Promise<unknown>, callback?: (error?: unknown) => void): void {
  work.then(
    () => callback?.(),
    (error: unknown) => (callback ? callback(error) : logger.error({ component: "sessions", error: (error as Error).message }, "a session was not saved")),
  );
}

/**
 * express-session store on the `sessions` table through Drizzle, so the same store serves
 * the embedded PGlite database and PostgreSQL (connect-pg-simple needs a node-postgres pool).
 */
export class DatabaseSessionStore extends session.Store {
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly defaultMaxAgeMs: number,
  ) {
    super();
    this.pruneTimer = setInterval(() => {
      this.pruneExpired().catch((error: Error) => logger.error({ component: "sessions", error: error.message }, "expired sessions were not pruned"));
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  override get(sid: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    readSession(this.db, sid).then((sess) => callback(null, (sess as session.SessionData | undefined) ?? null), callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    const expire = this.expiryOf(data);
    settle(upsertSession(this.db, sid, data, expire), callback);
  }

  override touch(sid: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    settle(touchSession(this.db, sid, this.expiryOf(data)), callback);
  }

  override destroy(sid: string, callback?: (error?: unknown) => void): void {
    settle(deleteSession(this.db, sid), callback);
  }

  async pruneExpired(): Promise<void> {
    await deleteExpiredSessions(this.db, new Date());
  }

  close(): void {
    clearInterval(this.pruneTimer);
  }

  private expiryOf(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires;
    return cookieExpiry ? new Date(cookieExpiry) : new Date(Date.now() + this.defaultMaxAgeMs);
  }
}
