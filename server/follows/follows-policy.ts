import type { User } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

/** A reader follows others, never themself (docs/product.md#follows). */
export function authorizeFollow(caller: Pick<User, "id">, authorId: string): void {
  if (caller.id === authorId.toLowerCase()) throw new HttpError(400, "follow_self", "You cannot follow yourself.", { id: "errors.follow_self" });
}

/**
 * Only an author a reader may find can be followed: an open account, not suspended, with a listed
 * book. Anything else answers as an unknown author would.
 */
export function isFollowable(author: Pick<User, "deletedAt" | "suspendedAt"> | undefined, listedBooks: number): boolean {
  return author !== undefined && author.deletedAt === null && author.suspendedAt === null && listedBooks > 0;
}

/** Who follows an author is never told; the author alone learns how many (docs/product.md#follows). */
export const seesFollowerCount = (caller: Pick<User, "id">, authorId: string): boolean => caller.id === authorId.toLowerCase();
