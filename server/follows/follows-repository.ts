import { type SQL, and, asc, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { DigestFrequency } from "../../shared/returning-readers.ts";
import type { Queryable } from "../db/client.ts";
import { bookEditions, books, downloads, follows, users } from "../db/schema.ts";
import { type BookCardRow, cardColumns, isListed, listedFor } from "../books/books-repository.ts";

/** Follows (docs/product.md#follows): who follows whom, never shown; the new books and editions they bring. */

/** Follows once: a second follow of the same author changes nothing (its first date stays). */
export async function insertFollow(db: Queryable, followerId: string, authorId: string, at: Date): Promise<void> {
  await db.insert(follows).values({ followerId, authorId, createdAt: at }).onConflictDoNothing();
}

export async function deleteFollow(db: Queryable, followerId: string, authorId: string): Promise<void> {
  await db.delete(follows).where(and(eq(follows.followerId, followerId), eq(follows.authorId, authorId)));
}

export async function isFollowing(db: Queryable, followerId: string, authorId: string): Promise<boolean> {
  const [row] = await db
    .select({ authorId: follows.authorId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.authorId, authorId)));
  return row !== undefined;
}

/** How many open accounts follow the author: all the author is told (docs/product.md#follows). */
export async function countFollowersOf(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(and(eq(follows.authorId, authorId), isNull(users.deletedAt)));
  return row!.count;
}

/** Whom the reader follows, oldest follow first, with their names: the reader's export. */
export async function listFollowedBy(db: Queryable, followerId: string): Promise<Array<{ authorId: string; firstName: string | null; lastName: string | null; followedAt: Date }>> {
  return db
    .select({ authorId: follows.authorId, firstName: users.firstName, lastName: users.lastName, followedAt: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.authorId))
    .where(eq(follows.followerId, followerId))
    .orderBy(asc(follows.createdAt), asc(follows.authorId));
}

/** A deleted account's follows, both ways: whom it followed and who followed it (docs/product.md#follows). */
export async function deleteFollowsOf(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(follows).where(or(eq(follows.followerId, userId), eq(follows.authorId, userId)));
}

/** Which new books and editions a list reads: the reader's, within a window of publication. */
export interface FollowingWindow {
  readerId: string;
  showExplicit: boolean;
  /** Only what came after this (the digest's cursor); null: no lower bound but the follow's own date, when `sinceFollow`. */
  after: Date | null;
  /** Only what came up to this moment. */
  through?: Date;
  /** Only what came after the reader followed the author (the digest never mails what was older than the follow). */
  sinceFollow: boolean;
  limit: number;
}

export type FollowedBookRow = BookCardRow & { at: Date };
export type NewEditionRow = BookCardRow & { at: Date; editionNumber: number; changelog: string | null };

const windowOf = (column: typeof books.createdAt | typeof bookEditions.createdAt, { after, through }: FollowingWindow): SQL[] => [
  ...(after ? [gt(column, after)] : []),
  ...(through ? [lte(column, through)] : []),
];

/** The listed books of the authors the reader follows, newest first. */
export async function listBooksOfFollowed(db: Queryable, window: FollowingWindow): Promise<FollowedBookRow[]> {
  return db
    .select({ ...cardColumns, at: books.createdAt })
    .from(follows)
    .innerJoin(books, eq(books.authorId, follows.authorId))
    .innerJoin(users, eq(users.id, books.authorId))
    .where(
      and(
        eq(follows.followerId, window.readerId),
        listedFor(window.showExplicit),
        ...(window.sinceFollow ? [gt(books.createdAt, follows.createdAt)] : []),
        ...windowOf(books.createdAt, window),
      ),
    )
    .orderBy(desc(books.createdAt), desc(books.id))
    .limit(window.limit);
}

/**
 * New editions (number 2 and on, docs/product.md#editions) of listed books whose author the reader
 * follows, or which the reader took before the edition came (a download of any channel), newest first.
 */
export async function listNewEditions(db: Queryable, window: FollowingWindow): Promise<NewEditionRow[]> {
  const followed = sql`exists (select 1 from ${follows} where ${follows.followerId} = ${window.readerId} and ${follows.authorId} = ${books.authorId}${
    window.sinceFollow ? sql` and ${bookEditions.createdAt} > ${follows.createdAt}` : sql``
  })`;
  const taken = sql`exists (select 1 from ${downloads} where ${downloads.userId} = ${window.readerId} and ${downloads.bookId} = ${books.id} and ${downloads.downloadedAt} < ${bookEditions.createdAt})`;
  return db
    .select({ ...cardColumns, at: bookEditions.createdAt, editionNumber: bookEditions.number, changelog: bookEditions.changelog })
    .from(bookEditions)
    .innerJoin(books, eq(books.id, bookEditions.bookId))
    .innerJoin(users, eq(users.id, books.authorId))
    .where(
      and(
        gt(bookEditions.number, 1),
        listedFor(window.showExplicit),
        sql`${books.authorId} <> ${window.readerId}`,
        or(followed, taken),
        ...windowOf(bookEditions.createdAt, window),
      ),
    )
    .orderBy(desc(bookEditions.createdAt), desc(bookEditions.id))
    .limit(window.limit);
}

/** A reader a digest may be due for: mail only to a proven address of an open account. */
export interface DigestReader {
  id: string;
  email: string;
  firstName: string | null;
  language: string;
  showExplicit: boolean;
  digestFrequency: DigestFrequency;
  digestSentThrough: Date | null;
}

/**
 * Readers whose digest is due at `through` and who have something new in it, by id after `afterId`
 * (a round walks them in pages). Weekly readers are due a week after their last digest; instant ones
 * whenever something arrived. Nothing older than `oldest` counts, whatever the cursor: a digest is
 * news, and each reader's checks stay within their own follows and downloads (indexed) and those
 * days. Each reader is checked again when claimed.
 */
export async function listDigestCandidates(
  db: Queryable,
  { through, weekAgo, oldest, afterId, limit }: { through: Date; weekAgo: Date; oldest: Date; afterId: string | null; limit: number },
): Promise<DigestReader[]> {
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  const since = sql`greatest(${follows.createdAt}, coalesce(${users.digestSentThrough}, ${follows.createdAt}), ${at(oldest)})`;
  const explicitOk = sql`(${users.showExplicit} or ${books.contentRating} <> 'explicit')`;
  const newBook = sql`exists (select 1 from ${follows} inner join ${books} on ${books.authorId} = ${follows.authorId}
    where ${follows.followerId} = ${users.id} and ${isListed} and ${explicitOk} and ${books.createdAt} > ${since} and ${books.createdAt} <= ${at(through)})`;
  const followedEdition = sql`exists (select 1 from ${follows} inner join ${books} on ${books.authorId} = ${follows.authorId} inner join ${bookEditions} on ${bookEditions.bookId} = ${books.id}
    where ${follows.followerId} = ${users.id} and ${bookEditions.number} > 1 and ${isListed} and ${explicitOk}
    and ${bookEditions.createdAt} > ${since} and ${bookEditions.createdAt} <= ${at(through)})`;
  const takenEdition = sql`exists (select 1 from ${downloads} inner join ${books} on ${books.id} = ${downloads.bookId} inner join ${bookEditions} on ${bookEditions.bookId} = ${books.id}
    where ${downloads.userId} = ${users.id} and ${bookEditions.number} > 1 and ${isListed} and ${explicitOk} and ${books.authorId} <> ${users.id}
    and ${bookEditions.createdAt} > ${downloads.downloadedAt} and ${bookEditions.createdAt} > greatest(coalesce(${users.digestSentThrough}, ${at(oldest)}), ${at(oldest)})
    and ${bookEditions.createdAt} <= ${at(through)})`;
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      language: users.language,
      showExplicit: users.showExplicit,
      digestFrequency: users.digestFrequency,
      digestSentThrough: users.digestSentThrough,
    })
    .from(users)
    .where(
      and(
        sql`${users.digestFrequency} <> 'off'`,
        sql`${users.emailVerifiedAt} is not null`,
        sql`${users.email} is not null`,
        isNull(users.deletedAt),
        isNull(users.suspendedAt),
        or(eq(users.digestFrequency, "instant"), isNull(users.digestSentThrough), lte(users.digestSentThrough, weekAgo)),
        ...(afterId ? [gt(users.id, afterId)] : []),
        or(newBook, followedEdition, takenEdition),
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, email: row.email! }));
}

/**
 * Claims the reader's digest up to `through`: the cursor moves only from the value this server read,
 * and only while the account still wants this digest at a proven address, so of several servers one
 * alone sends it (docs/decisions/0101).
 */
export async function claimDigest(db: Queryable, reader: DigestReader, through: Date): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ digestSentThrough: through })
    .where(
      and(
        eq(users.id, reader.id),
        reader.digestSentThrough === null ? isNull(users.digestSentThrough) : eq(users.digestSentThrough, reader.digestSentThrough),
        eq(users.digestFrequency, reader.digestFrequency),
        sql`${users.emailVerifiedAt} is not null`,
        isNull(users.deletedAt),
        isNull(users.suspendedAt),
      ),
    )
    .returning({ id: users.id });
  return claimed.length === 1;
}

/** Gives a claim back when its mail could not go out: the next round tries again. */
export async function releaseDigest(db: Queryable, readerId: string, through: Date, previous: Date | null): Promise<void> {
  await db
    .update(users)
    .set({ digestSentThrough: previous })
    .where(and(eq(users.id, readerId), eq(users.digestSentThrough, through)));
}

/**
 * Sets how often the reader is mailed. Turning the digest on again starts it from now: a reader who
 * had it off is not sent everything that came while it was.
 */
export async function setDigestFrequency(db: Queryable, userId: string, frequency: DigestFrequency, now: Date) {
  const [updated] = await db
    .update(users)
    .set({
      digestFrequency: frequency,
      digestSentThrough: frequency === "off" ? sql`${users.digestSentThrough}` : sql`case when ${users.digestFrequency} = 'off' then ${now.toISOString()}::timestamptz else ${users.digestSentThrough} end`,
    })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning();
  return updated;
}
