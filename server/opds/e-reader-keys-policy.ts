import type { User } from "../db/schema.ts";

/**
 * An e-reader key is its owner's alone: to anyone else, the admin included, it does not exist, and
 * the answer is the same 404 as for an unknown id (docs/product.md#opds).
 */
export const isOwnKey = (key: { userId: User["id"] }, caller: Pick<User, "id">): boolean => key.userId === caller.id;

/**
 * Whether the account named in an e-reader app's sign-in is the key's owner: by username or e-mail,
 * in any letter case, as the sign-in form finds accounts.
 */
export function namesKeyOwner(identifier: string, owner: Pick<User, "username" | "email">): boolean {
  const typed = identifier.trim().toLowerCase();
  return typed !== "" && (typed === owner.username.toLowerCase() || typed === owner.email?.toLowerCase());
}
