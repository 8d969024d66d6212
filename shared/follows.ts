import type { BookCard } from "./books.ts";

/** Follows, the "New from authors you follow" row, the digest mail and the personal feeds (docs/product.md#follows). */

/** The follow state a reader sees of an author; an author looking at themself sees their followers' count instead. */
export interface FollowState {
  following: boolean;
  /** Only for the author themself: how many readers follow them (who they are is never told, docs/product.md#follows). */
  followerCount: number | null;
}

/** A book of a followed author, or a new edition of a book the reader follows the author of or took. */
export interface FollowingItem {
  kind: "book" | "edition";
  /** When the book was published, or when its new edition was uploaded. */
  at: string;
  /** The edition's number (2 and on); null for a new book. */
  edition: number | null;
  book: BookCard;
}

/** The most entries the home row, the feeds and a digest list at once. */
export const FOLLOWING_ROW_SIZE = 8;
export const FOLLOWING_FEED_SIZE = 50;
export const DIGEST_MAX_ITEMS = 30;

export const FOLLOWING_API = "/api/following";
export const followApi = (authorId: string) => `/api/authors/${authorId}/follow`;

/** Where a digest's one-click unsubscribe goes: GET shows the page that asks, POST unsubscribes (RFC 8058). */
export const DIGEST_UNSUBSCRIBE_PATH = "/unsubscribe";
/** The reader's own feeds, read with an e-reader key (docs/product.md#follows). */
export const FOLLOWING_OPDS_PATH = "/opds/following";
export const FOLLOWING_ATOM_PATH = "/opds/following/atom";

/** An unsubscribe link's token: the account's id and the link's signature, `<uuid>.<43 base64url characters>`. */
export const UNSUBSCRIBE_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]{43}$/;
