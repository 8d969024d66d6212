import type { FollowState } from "../../shared/follows.ts";
import type { DigestFrequency } from "../../shared/returning-readers.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import { countListedBooksOf } from "../books/books-repository.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { authorizeFollow, isFollowable, seesFollowerCount } from "./follows-policy.ts";
import {
  type FollowedBookRow,
  type FollowingWindow,
  type NewEditionRow,
  countFollowersOf,
  deleteFollow,
  insertFollow,
  isFollowing,
  listBooksOfFollowed,
  listNewEditions,
  setDigestFrequency,
} from "./follows-repository.ts";

/** Follows (docs/product.md#follows): a reader follows an author, sees what is new from them, and is mailed of it. */

export async function readFollowState(db: Queryable, caller: User, authorId: string): Promise<FollowState> {
  if (seesFollowerCount(caller, authorId)) return { following: false, followerCount: await countFollowersOf(db, caller.id) };
  return { following: await isFollowing(db, caller.id, authorId), followerCount: null };
}

export async function followAuthor(db: Db, caller: User, authorId: string, now: Date): Promise<FollowState> {
  authorizeFollow(caller, authorId);
  const [author, listedBooks] = await Promise.all([findOpenAccount(db, authorId), countListedBooksOf(db, authorId)]);
  if (!isFollowable(author, listedBooks)) throw notFound("This author does not exist.");
  await insertFollow(db, caller.id, authorId, now);
  return { following: true, followerCount: null };
}

/** Unfollowing is always allowed, an author since suspended or deleted included; twice is once. */
export async function unfollowAuthor(db: Db, caller: User, authorId: string): Promise<FollowState> {
  authorizeFollow(caller, authorId);
  await deleteFollow(db, caller.id, authorId);
  return { following: false, followerCount: null };
}

/**
 * What is new from the authors the reader follows, newest first: their listed books, and new
 * editions of books by them or taken by the reader, `limit` of them in all.
 */
export async function listFollowingItems(db: Queryable, reader: { id: string; showExplicit: boolean }, window: Omit<FollowingWindow, "readerId" | "showExplicit">): Promise<Array<FollowedBookRow | NewEditionRow>> {
  const full = { ...window, readerId: reader.id, showExplicit: reader.showExplicit };
  const [newBooks, editions] = await Promise.all([listBooksOfFollowed(db, full), listNewEditions(db, full)]);
  return [...newBooks, ...editions].sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id).slice(0, window.limit);
}

export async function chooseDigest(db: Db, userId: string, frequency: DigestFrequency, now: Date): Promise<User> {
  const updated = await setDigestFrequency(db, userId, frequency, now);
  if (!updated) throw notFound("There is no such account.");
  return updated;
}
