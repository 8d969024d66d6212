import type { RegisterData } from "../../shared/auth.ts";
import { DEFAULT_LANGUAGE, type InterfaceLanguage } from "../../shared/languages.ts";
import { hashPassword, unknownAccountHash, verifyPassword } from "./passwords.ts";
import type { PasswordHashCost } from "../config.ts";
import type { Db, Queryable } from "../db/client.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import type { User } from "../db/schema.ts";
import { conflict } from "../http/errors.ts";
import { suspendedAccountError } from "../moderation/moderation-service.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { findOpenAccount, findUserByIdentifier, insertUser, recordSignIn, setUserLanguage } from "./users-repository.ts";

const takenBy: Record<string, { code: string; field: string; message: string }> = {
  users_username_lower_key: { code: "username_taken", field: "username", message: "This username is already taken." },
};

/**
 * Creates the account; the username's unique index decides duplicates, so two racing sign-ups cannot
 * both win. The e-mail is an unproven claim, which never collides (docs/decisions/0054).
 */
export async function registerAccount(db: Db, input: RegisterData, cost: PasswordHashCost, language: InterfaceLanguage = DEFAULT_LANGUAGE): Promise<User> {
  const password = await hashPassword(input.password, cost);
  // Registering is the account's first sign-in, at the instant it is created: the account is new until
  // it signs in again (isNewAccount, docs/product.md#accounts).
  const at = new Date();
  try {
    return await insertUser(db, {
      username: input.username,
      email: input.email ?? null,
      password,
      firstName: input.firstName,
      lastName: input.lastName,
      language,
      createdAt: at,
      lastSignInAt: at,
    });
  } catch (error) {
    throw takenOr(error);
  }
}

/** A duplicate username as the 409 that names the field; any other error as it is. */
export function takenOr(error: unknown): unknown {
  const taken = takenBy[violatedUniqueConstraint(error) ?? ""];
  return taken ? conflict(taken.code, taken.message, { [taken.field]: `errors.${taken.code}` }) : error;
}

/** The language the account's mail is written in follows the interface language it chose. */
export async function setAccountLanguage(db: Db, id: string, language: InterfaceLanguage): Promise<void> {
  await setUserLanguage(db, id, language);
}

/** The account for these credentials, or null; an unknown account costs the same time as a wrong password. */
export async function authenticate(db: Db, identifier: string, password: string, cost: PasswordHashCost): Promise<User | null> {
  const user = await findUserByIdentifier(db, identifier);
  const matches = await verifyPassword(password, user?.password ?? (await unknownAccountHash(cost)));
  if (!user || !matches) return null;
  // Told only to whoever knows the password: anyone else learns nothing of the account.
  if (user.suspendedAt !== null) throw await suspendedAccountError(db, user.id);
  const at = new Date();
  await recordSignIn(db, user.id, at);
  return { ...user, lastSignInAt: at };
}

/** An account as anyone may see it, on its author page and feed (docs/product.md#accounts): never the e-mail itself. */
export interface PublicAccount {
  id: string;
  /** Full name, else the e-mail's local part, else null. */
  displayName: string | null;
  memberSince: Date;
  updatedAt: Date;
}

export async function findPublicAccount(db: Queryable, id: string): Promise<PublicAccount | undefined> {
  const user = await findOpenAccount(db, id);
  if (!user) return undefined;
  const displayName = authorDisplayName({ authorFirstName: user.firstName, authorLastName: user.lastName, authorEmail: user.email });
  return { id: user.id, displayName, memberSince: user.createdAt, updatedAt: user.updatedAt };
}
