import { createHash, randomBytes } from "node:crypto";
import { VERIFY_EMAIL_PATH, VERIFY_LINK_VALID_MS, type VerificationSent, type VerifiedEmail } from "../../shared/email-verification.ts";
import { takenOr } from "./accounts-service.ts";
import { insertAccountToken, lockAccountToken, spendAccountTokens } from "./account-tokens-repository.ts";
import { findOpenAccount, setEmailUnverified, setEmailVerified } from "./users-repository.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { HttpError, conflict, notFound } from "../http/errors.ts";
import { composeLinkMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";

/** What a verification mail needs besides the account: how to send it, and where its link points. */
export interface VerificationMailing {
  mailer: Mailer;
  /** The origin the link is made from (server/http/site-origin.ts). */
  origin: string;
  productName: string;
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export function verificationUrl(origin: string, token: string): string {
  return `${origin}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Stores a new link for the account's current address and mails it (docs/product.md#accounts).
 * 256 random bits, of which only the SHA-256 is kept; the row names the address the link proves.
 * Resolves whether the mail went out: a failure is logged by the mailer and never undoes the caller's work.
 */
export async function sendVerificationLink(db: Queryable, user: User, { mailer, origin, productName }: VerificationMailing, now: Date): Promise<boolean> {
  if (!user.email) return false;
  const token = randomBytes(32).toString("base64url");
  await insertAccountToken(db, {
    userId: user.id,
    purpose: "verify-email",
    tokenHash: hashOf(token),
    email: user.email,
    expiresAt: new Date(now.getTime() + VERIFY_LINK_VALID_MS),
  });
  const link = verificationUrl(origin, token);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;
  return mailer.send(composeLinkMail({ kind: "verifyEmail", to: user.email, language: user.language, link, values: { productName, name, email: user.email } }));
}

/** "Send the link again" from the dashboard: only for an address not yet proven. */
export async function resendVerificationLink(db: Db, userId: string, mailing: VerificationMailing, now: Date): Promise<VerificationSent> {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  if (!user.email) throw conflict("no_email", "This account has no e-mail address to verify.");
  if (user.emailVerifiedAt) throw conflict("email_already_verified", "This e-mail address is already verified.");
  // The person asked for this mail and waits for it: saying it went out when it did not would leave them waiting.
  if (!(await sendVerificationLink(db, user, mailing, now))) {
    throw new HttpError(503, "mail_not_sent", "The link could not be sent just now. Try again in a few minutes.");
  }
  return { sentTo: user.email };
}

const linkRefused = {
  invalid: () => new HttpError(400, "verify_link_invalid", "This verification link is not valid."),
  // An earlier address's link proves nothing about the current one.
  stale: () => new HttpError(400, "verify_link_invalid", "This verification link was sent to an earlier address of the account."),
  used: () => new HttpError(410, "verify_link_used", "This verification link has already been used."),
  expired: () => new HttpError(410, "verify_link_expired", "This verification link has expired. Ask for a new one from your dashboard."),
};

/**
 * Spends a link: the account's address is proven if it is still the one the link was sent to. The
 * link and every other verification link of the account are spent; a refused link changes nothing.
 */
export async function verifyEmail(db: Db, token: string, now: Date): Promise<VerifiedEmail & { userId: string }> {
  return db.transaction(async (tx) => {
    const stored = await lockAccountToken(tx, hashOf(token), "verify-email");
    if (!stored?.email) throw linkRefused.invalid();
    if (stored.usedAt) throw linkRefused.used();
    if (stored.expiresAt.getTime() <= now.getTime()) throw linkRefused.expired();
    const user = await setEmailVerified(tx, stored.userId, stored.email, now);
    if (!user?.emailVerifiedAt) throw linkRefused.stale();
    await spendAccountTokens(tx, user.id, "verify-email", now);
    return { userId: user.id, email: user.email!, verifiedAt: user.emailVerifiedAt.toISOString() };
  });
}

/**
 * Changes the account's address (the settings screen calls this): the new address is unproven, so
 * admin rights and resets wait for its link; the links sent to the old one prove nothing any more, as
 * each names the address it was sent to.
 */
export async function changeEmail(db: Db, userId: string, email: string, mailing: VerificationMailing, now: Date): Promise<User> {
  let user: User;
  try {
    user = await setEmailUnverified(db, userId, email);
  } catch (error) {
    throw takenOr(error);
  }
  await sendVerificationLink(db, user, mailing, now);
  return user;
}
