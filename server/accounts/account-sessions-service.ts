import { createHash } from "node:crypto";
import type { Request } from "express";
import type { AccountSession } from "../../shared/account-settings.ts";
import { deleteAccountSessions, deleteSession, listAccountSessions } from "./sessions-repository.ts";
import type { Db } from "../db/client.ts";
import { conflict, notFound } from "../http/errors.ts";

declare module "express-session" {
  interface SessionData {
    /** When this browser signed in (ISO 8601), for the settings screen's list of signed-in browsers. */
    signedInAt?: string;
    /** The browser's User-Agent at sign-in, cut short: how a person tells their devices apart. */
    userAgent?: string;
  }
}

const USER_AGENT_MAX = 300;

/** Called right after a sign-in (the session id is new by then): what the list of signed-in browsers shows. */
export function noteSignInOnSession(req: Request, at: Date): void {
  req.session.signedInAt = at.toISOString();
  const userAgent = req.get("user-agent")?.slice(0, USER_AGENT_MAX);
  if (userAgent) req.session.userAgent = userAgent;
}

/** A session's public id: naming a session must never hand out the cookie that opens it. */
const publicIdOf = (sid: string) => createHash("sha256").update(sid).digest("hex").slice(0, 32);

interface StoredFacts {
  signedInAt?: unknown;
  userAgent?: unknown;
}

/**
 * The account's signed-in browsers, this one first, then the most recently used. A session's expiry
 * moves forward at each request, so its last use is its expiry less the session's lifetime.
 */
export async function listSignedInBrowsers(db: Db, userId: string, currentSid: string, sessionMaxAgeMs: number): Promise<AccountSession[]> {
  const rows = await listAccountSessions(db, userId);
  return rows
    .map(({ sid, sess, expire }) => {
      const facts = sess as StoredFacts;
      return {
        id: publicIdOf(sid),
        current: sid === currentSid,
        signedInAt: typeof facts.signedInAt === "string" ? facts.signedInAt : null,
        lastActiveAt: new Date(expire.getTime() - sessionMaxAgeMs).toISOString(),
        userAgent: typeof facts.userAgent === "string" ? facts.userAgent : null,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
}

/** Signs out one other browser of the account; this one signs out with "Sign out" instead. */
export async function signOutBrowser(db: Db, userId: string, publicId: string, currentSid: string): Promise<void> {
  const rows = await listAccountSessions(db, userId);
  const target = rows.find((row) => publicIdOf(row.sid) === publicId);
  if (!target) throw notFound("There is no such signed-in browser on this account.");
  if (target.sid === currentSid) throw conflict("current_session", "This is the browser you are using: sign out from the menu instead.");
  await deleteSession(db, target.sid);
}

export async function signOutOtherBrowsers(db: Db, userId: string, currentSid: string): Promise<number> {
  return deleteAccountSessions(db, userId, currentSid);
}
