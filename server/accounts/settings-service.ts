import type { PublicShelvesInput } from "../../shared/shelf-schemas.ts";
import type { EReaderEmailData, EmailChangeInput, ExplicitBooksInput, NotificationsInput, PasswordChangeInput, ProfileInput } from "../../shared/account-settings.ts";
import { takenOr } from "./accounts-service.ts";
import { spendAccountTokens } from "./account-tokens-repository.ts";
import { type VerificationMailing, changeEmail } from "./email-verification-service.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { deleteAccountSessions } from "./sessions-repository.ts";
import { setEReaderEmail, setNotifyPaymentCompleted, setPasswordHash, setProfile, setShelvesPublic, setShowExplicit } from "./users-repository.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

/** The settings screen's changes (docs/product.md#settings). */

const wrongPassword = () =>
  new HttpError(400, "wrong_password", "The current password is not right.", { currentPassword: "errors.wrong_password" });

/**
 * The changes that could take an account over (its e-mail, its password, its deletion) ask for the
 * current password: a session left open on a shared computer must not be enough.
 */
export async function confirmCurrentPassword(user: User, currentPassword: string): Promise<void> {
  if (!(await verifyPassword(currentPassword, user.password))) throw wrongPassword();
}

export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<User> {
  try {
    return await setProfile(db, userId, input);
  } catch (error) {
    throw takenOr(error);
  }
}

/** A new address is unproven until its own link is opened (docs/product.md#accounts). */
export async function changeEmailConfirmed(db: Db, user: User, input: EmailChangeInput, mailing: VerificationMailing, now: Date): Promise<User> {
  await confirmCurrentPassword(user, input.currentPassword);
  if (user.email?.toLowerCase() === input.email.toLowerCase()) {
    throw new HttpError(400, "email_unchanged", "This is already the account's e-mail address.", { email: "errors.email_unchanged" });
  }
  return changeEmail(db, user.id, input.email, mailing, now);
}

/**
 * The new password holds from now on: every other session of the account is signed out (this one
 * stays), and reset links mailed earlier are spent, since they were asked for to replace the old one.
 */
export async function changePassword(db: Db, user: User, input: PasswordChangeInput, cost: PasswordHashCost, callerSid: string, now: Date): Promise<void> {
  await confirmCurrentPassword(user, input.currentPassword);
  const password = await hashPassword(input.password, cost);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, password);
    await spendAccountTokens(tx, user.id, "reset-password", now);
    await deleteAccountSessions(tx, user.id, callerSid);
  });
}

/** Whether the reader's shelves show at /readers/{username}: off until they choose it (docs/product.md#shelves). */
export async function setPublicShelves(db: Db, userId: string, input: PublicShelvesInput): Promise<User> {
  return setShelvesPublic(db, userId, input.shelvesPublic);
}

export async function setExplicitBooks(db: Db, userId: string, input: ExplicitBooksInput): Promise<User> {
  return setShowExplicit(db, userId, input.showExplicit);
}

/**
 * Where "Send to my e-reader" mails books (docs/product.md#send-to-e-reader). Unlike the account's
 * e-mail it is not proven by a link: a Kindle's address cannot open one, and its mail service takes
 * nothing from a sender its owner has not approved, so a wrong address gets nothing through.
 */
export async function updateEReaderEmail(db: Db, userId: string, input: EReaderEmailData): Promise<User> {
  return setEReaderEmail(db, userId, input.eReaderEmail);
}

export async function setNotifications(db: Db, userId: string, input: NotificationsInput): Promise<User> {
  return setNotifyPaymentCompleted(db, userId, input.paymentCompleted);
}
