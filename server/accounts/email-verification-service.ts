import { createHash, randomBytes } from "node:crypto";
import { VERIFY_EMAIL_PATH, VERIFY_LINK_VALID_MS, type VerificationSent, type VerifiedEmail } from "../../shared/email-verification.ts";
import { findAccountToken, insertAccountToken, lockAccountToken, spendAccountTokens, spendTokensOfAccounts } from "./account-tokens-repository.ts";
import { dropOtherClaims, findOpenAccount, findUserByVerifiedEmail, lockEmailAddress, setEmailUnverified, setEmailVerified } from "./users-repository.ts";
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
 * Mails what an account's current address calls for (docs/product.md#accounts): a link that proves
 * it, or, when another account already proved it, a note to that owner that someone tried to use
 * their address, with the way to sign in instead of a link. Either way it stores a token (256 random
 * bits, of which only the SHA-256 is kept, naming the address) and sends one mail, so the caller's
 * answer and the work behind it are the same (docs/decisions/0054); the token behind the note is
 * never mailed, and could prove nothing while the owner holds the address. Resolves whether the mail
 * went out: a failure is logged by the mailer and never undoes the caller's work.
 */
export async function mailAddressProof(db: Queryable, user: User, { mailer, origin, productName }: VerificationMailing, now: Date): Promise<boolean> {
  if (!user.email) return false;
  const owner = await findUserByVerifiedEmail(db, user.email);
  const token = randomBytes(32).toString("base64url");
  await insertAccountToken(db, {
    userId: user.id,
    purpose: "verify-email",
    tokenHash: hashOf(token),
    email: user.email,
    expiresAt: new Date(now.getTime() + VERIFY_LINK_VALID_MS),
  });
  const addressee = owner && owner.id !== user.id ? owner : user;
  const values = { productName, name: [addressee.firstName, addressee.lastName].filter(Boolean).join(" ") || addressee.username, email: user.email };
  const mail =
    addressee === owner
      ? { kind: "addressInUse" as const, link: `${origin}/login` } // the sign-in screen, with "Forgot password?"
      : { kind: "verifyEmail" as const, link: verificationUrl(origin, token) };
  return mailer.send(composeLinkMail({ ...mail, to: user.email, language: addressee.language, values }));
}

/** "Send the link again" from the dashboard: only for an address not yet proven. */
export async function resendVerificationLink(db: Db, userId: string, mailing: VerificationMailing, now: Date): Promise<VerificationSent> {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  if (!user.email) throw conflict("no_email", "This account has no e-mail address to verify.");
  if (user.emailVerifiedAt) throw conflict("email_already_verified", "This e-mail address is already verified.");
  // The person asked for this mail and waits for it: saying it went out when it did not would leave them waiting.
  if (!(await mailAddressProof(db, user, mailing, now))) {
    throw new HttpError(503, "mail_not_sent", "The link could not be sent just now. Try again in a few minutes.");
  }
  return { sentTo: user.email };
}

const linkRefused = {
  invalid: () => new HttpError(400, "verify_link_invalid", "This verification link is not valid."),
  // An earlier address's link proves nothing about the current one, nor one another account proved meanwhile.
  stale: () => new HttpError(400, "verify_link_invalid", "This verification link was sent to an earlier address of the account."),
  used: () => new HttpError(410, "verify_link_used", "This verification link has already been used."),
  expired: () => new HttpError(410, "verify_link_expired", "This verification link has expired. Ask for a new one from your dashboard."),
  signedOut: () => new HttpError(401, "verify_sign_in_required", "Sign in to the account this address was given to, then open the link again."),
  otherAccount: () =>
    new HttpError(403, "verify_other_account", "This link was sent for another account: sign in to that account, then open the link again."),
};

/**
 * Spends a link opened while signed in to the account it was made for (a mailbox alone proves the
 * address, not whose claim it is: docs/decisions/0054). The address is proven if it is still the
 * account's and no other account proved it; every other account's claim on it is then dropped, with
 * its links. The link and every other verification link of the account are spent; a refused link,
 * including one opened signed out or in another account, changes nothing.
 */
export async function verifyEmail(db: Db, token: string, callerId: string | undefined, now: Date): Promise<VerifiedEmail & { userId: string }> {
  return db.transaction(async (tx) => {
    const seen = await findAccountToken(tx, hashOf(token), "verify-email");
    if (!seen?.email) throw linkRefused.invalid();
    if (seen.userId !== callerId) throw callerId ? linkRefused.otherAccount() : linkRefused.signedOut();
    // The address first, then the link: a proof spends the other claimants' links, so two claimants
    // proving at once each holding their own link's row while waiting for the address would deadlock.
    await lockEmailAddress(tx, seen.email);
    const stored = await lockAccountToken(tx, seen.tokenHash, "verify-email");
    // Gone meanwhile only with its account (a deletion).
    if (!stored) throw linkRefused.invalid();
    if (stored.usedAt) throw linkRefused.used();
    if (stored.expiresAt.getTime() <= now.getTime()) throw linkRefused.expired();
    const owner = await findUserByVerifiedEmail(tx, seen.email);
    if (owner && owner.id !== stored.userId) throw linkRefused.stale();
    const user = await setEmailVerified(tx, stored.userId, seen.email, now);
    if (!user?.emailVerifiedAt) throw linkRefused.stale();
    await spendAccountTokens(tx, user.id, "verify-email", now);
    await spendTokensOfAccounts(tx, await dropOtherClaims(tx, user.id, seen.email), "verify-email", now);
    return { userId: user.id, email: user.email!, verifiedAt: user.emailVerifiedAt.toISOString() };
  });
}

/**
 * Changes the account's address (the settings screen calls this): the new address is unproven, so
 * admin rights and resets wait for its link; the links sent to the old one prove nothing any more, as
 * each names the address it was sent to. Whether another account holds or proved the address changes
 * neither the answer nor the work, only the mail (mailAddressProof).
 */
export async function changeEmail(db: Db, userId: string, email: string, mailing: VerificationMailing, now: Date): Promise<User> {
  const user = await setEmailUnverified(db, userId, email);
  await mailAddressProof(db, user, mailing, now);
  return user;
}
