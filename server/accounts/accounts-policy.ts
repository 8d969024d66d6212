import type { User } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";

/**
 * The admin is the account whose verified e-mail is ADMIN_EMAIL (docs/product.md#roles): anyone can
 * type that address at registration, only its owner can open the link sent to it. The setting is stored lower-cased.
 */
export function isAdmin(user: Pick<User, "email" | "emailVerifiedAt">, adminEmail: string | undefined): boolean {
  return Boolean(adminEmail && user.email && user.emailVerifiedAt && user.email.toLowerCase() === adminEmail);
}

/**
 * An account's own records (its payments, its ratings) are read by that account and the admin only
 * (docs/product.md#roles); `refusal` is the sentence the caller gets otherwise.
 */
export function authorizeAccountRead(caller: Pick<Express.User, "id" | "isAdmin">, accountId: string, refusal: string): void {
  if (accountId !== caller.id && !caller.isAdmin) throw forbidden(refusal);
}
