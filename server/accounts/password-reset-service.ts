import { createHash, randomBytes } from "node:crypto";
import { RESET_LINK_VALID_MS } from "../../shared/password-reset.ts";
import { type AccountToken, findAccountToken, insertAccountToken, lockAccountToken, spendAccountTokens } from "./account-tokens-repository.ts";
import { hashPassword } from "./passwords.ts";
import { deleteAccountSessions } from "./sessions-repository.ts";
import { findOpenAccount, findUserByVerifiedEmail, setPasswordHash } from "./users-repository.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { composeLinkMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";

/** The screen a reset link opens (client/src/features/accounts/reset-password-page.tsx). */
export const RESET_PATH = "/reset-password";

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new single-use reset link for the account, valid one hour (docs/product.md#password-reset).
 * 256 random bits; only their SHA-256 is kept, so the table's rows cannot be turned back into links.
 */
export async function issueResetToken(db: Queryable, user: Pick<User, "id" | "email">, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + RESET_LINK_VALID_MS);
  await insertAccountToken(db, { userId: user.id, purpose: "reset-password", tokenHash: hashOf(token), email: user.email, expiresAt });
  return { token, expiresAt };
}

export function resetUrl(origin: string, token: string): string {
  return `${origin}${RESET_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * "Forgot password?" for an address: a reset mail, in the account's language, when the address is
 * the verified e-mail of an account, and nothing otherwise — an unverified address may be someone
 * else's, and a link to it would hand them the account (docs/decisions/0034). The caller has
 * already answered, the same for every address, so nothing here can be told apart from outside.
 */
export async function mailResetLink(
  db: Db,
  mail: { mailer: Mailer; origin: string; productName: string },
  email: string,
  now: Date,
): Promise<void> {
  const user = await findUserByVerifiedEmail(db, email);
  if (!user?.email) return;
  const { token } = await issueResetToken(db, user, now);
  await mail.mailer.send(
    composeLinkMail({
      kind: "resetPassword",
      to: user.email,
      language: user.language,
      link: resetUrl(mail.origin, token),
      values: { productName: mail.productName, name: user.firstName || user.username },
    }),
  );
}

/** The admin's link for an account that may have no e-mail: the same kind of link a mail carries. */
export async function issueAdminResetLink(db: Db, userId: string, origin: string, now: Date): Promise<{ url: string; expiresAt: Date }> {
  const user = await findOpenAccount(db, userId);
  if (!user) throw notFound("There is no such account.");
  const { token, expiresAt } = await issueResetToken(db, user, now);
  return { url: resetUrl(origin, token), expiresAt };
}

const linkRefused = {
  invalid: () => new HttpError(400, "reset_link_invalid", "This reset link is not valid. Ask for a new one."),
  used: () => new HttpError(410, "reset_link_used", "This reset link has already been used. Ask for a new one."),
  expired: () => new HttpError(410, "reset_link_expired", "This reset link has expired. Ask for a new one."),
};

function refusalFor(token: AccountToken | undefined, now: Date): HttpError | undefined {
  if (!token) return linkRefused.invalid();
  if (token.usedAt) return linkRefused.used();
  if (token.expiresAt.getTime() <= now.getTime()) return linkRefused.expired();
  return undefined;
}

/**
 * Whether a reset link can still be used, without spending it: the page says a used or expired link is
 * so before anything is typed (docs/product.md#password-reset). The token's 256 bits make it no oracle.
 */
export async function checkResetLink(db: Queryable, token: string, now: Date): Promise<void> {
  const refusal = refusalFor(await findAccountToken(db, hashOf(token), "reset-password"), now);
  if (refusal) throw refusal;
}

/**
 * Sets the new password through a reset link: the link and every other reset link of the account are
 * spent, and every session of the account but the caller's is signed out (docs/decisions/0034).
 * A refused link changes nothing.
 */
export async function resetPassword(
  db: Db,
  input: { token: string; password: string },
  cost: PasswordHashCost,
  callerSid: string | undefined,
  now: Date,
): Promise<void> {
  const tokenHash = hashOf(input.token);
  // Checked before hashing, so a forged link costs a lookup, not a password hash; checked again under lock below.
  const seen = await db.transaction((tx) => lockAccountToken(tx, tokenHash, "reset-password"));
  const early = refusalFor(seen, now);
  if (early) throw early;
  const password = await hashPassword(input.password, cost);
  await db.transaction(async (tx) => {
    const token = await lockAccountToken(tx, tokenHash, "reset-password");
    const refusal = refusalFor(token, now);
    if (refusal) throw refusal;
    await setPasswordHash(tx, token!.userId, password);
    await spendAccountTokens(tx, token!.userId, "reset-password", now);
    await deleteAccountSessions(tx, token!.userId, callerSid);
  });
}
