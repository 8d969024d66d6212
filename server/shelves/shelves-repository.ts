import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Shelf, TakingChannel } from "../../shared/shelves.ts";
import type { ReaderFormat } from "../../shared/reading.ts";
import type { Queryable } from "../db/client.ts";
import { books, downloads, readingPositions, shelfEntries, users } from "../db/schema.ts";
import { type BookCardRow, cardColumns, listedFor } from "../books/books-repository.ts";

/**
 * A reader's shelves, "Continue reading" and "My books" (docs/product.md#shelves). Every query names
 * the reader; lists hold only books the reader may be shown (listed, explicit ones by their choice).
 */

export async function upsertShelfEntry(db: Queryable, userId: string, bookId: number, shelf: Shelf, at: Date): Promise<void> {
  await db
    .insert(shelfEntries)
    .values({ userId, bookId, shelf, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: [shelfEntries.userId, shelfEntries.bookId], set: { shelf, updatedAt: at } });
}

/**
 * Opening a book puts it on Reading: from no shelf or from Want to read. A book on Read stays there:
 * a reread does not undo that the reader finished it (docs/decisions/0102).
 */
export async function shelveOnOpening(db: Queryable, userId: string, bookId: number, at: Date): Promise<void> {
  await db
    .insert(shelfEntries)
    .values({ userId, bookId, shelf: "reading", createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [shelfEntries.userId, shelfEntries.bookId],
      set: { shelf: "reading", updatedAt: at },
      setWhere: eq(shelfEntries.shelf, "want"),
    });
}

/** Whether there was an entry to remove. */
export async function deleteShelfEntry(db: Queryable, userId: string, bookId: number): Promise<boolean> {
  const deleted = await db
    .delete(shelfEntries)
    .where(and(eq(shelfEntries.userId, userId), eq(shelfEntries.bookId, bookId)))
    .returning({ bookId: shelfEntries.bookId });
  return deleted.length > 0;
}

/** Every shelved book of the reader, by id: the cards' one request. */
export async function listShelfMap(db: Queryable, userId: string): Promise<Array<{ bookId: number; shelf: Shelf }>> {
  return db.select({ bookId: shelfEntries.bookId, shelf: shelfEntries.shelf }).from(shelfEntries).where(eq(shelfEntries.userId, userId));
}

export async function findShelfEntry(db: Queryable, userId: string, bookId: number): Promise<Shelf | undefined> {
  const [row] = await db
    .select({ shelf: shelfEntries.shelf })
    .from(shelfEntries)
    .where(and(eq(shelfEntries.userId, userId), eq(shelfEntries.bookId, bookId)));
  return row?.shelf;
}

/** One shelf's books the viewer may be shown, the latest shelved first, with how many there are. */
export async function listShelf(
  db: Queryable,
  { userId, shelf, showExplicit, limit, offset }: { userId: string; shelf: Shelf; showExplicit: boolean; limit: number; offset: number },
): Promise<{ rows: Array<{ book: BookCardRow; shelvedAt: Date }>; total: number }> {
  const where = and(eq(shelfEntries.userId, userId), eq(shelfEntries.shelf, shelf), listedFor(showExplicit));
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ book: cardColumns, shelvedAt: shelfEntries.updatedAt })
      .from(shelfEntries)
      .innerJoin(books, eq(books.id, shelfEntries.bookId))
      .innerJoin(users, eq(users.id, books.authorId))
      .where(where)
      .orderBy(desc(shelfEntries.updatedAt), desc(shelfEntries.bookId))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(shelfEntries).innerJoin(books, eq(books.id, shelfEntries.bookId)).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** The books the reader took (downloaded, read, sent, by an e-reader app), each once: newest taking first. */
export async function listTakenBooks(
  db: Queryable,
  { userId, showExplicit, limit, offset }: { userId: string; showExplicit: boolean; limit: number; offset: number },
): Promise<{ rows: Array<{ book: BookCardRow; channels: TakingChannel[]; lastTakenAt: Date }>; total: number }> {
  const taken = db
    .select({
      bookId: downloads.bookId,
      channels: sql<string[]>`array_agg(distinct ${downloads.channel})`.as("channels"),
      lastTakenAt: sql<Date>`max(${downloads.downloadedAt})`.as("last_taken_at"),
    })
    .from(downloads)
    .where(eq(downloads.userId, userId))
    .groupBy(downloads.bookId)
    .as("taken");
  const where = listedFor(showExplicit);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ book: cardColumns, channels: taken.channels, lastTakenAt: taken.lastTakenAt })
      .from(taken)
      .innerJoin(books, eq(books.id, taken.bookId))
      .innerJoin(users, eq(users.id, books.authorId))
      .where(where)
      .orderBy(desc(taken.lastTakenAt), desc(taken.bookId))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(taken).innerJoin(books, eq(books.id, taken.bookId)).where(where),
  ]);
  return {
    rows: rows.map((row) => ({
      book: row.book,
      channels: [...row.channels].sort() as TakingChannel[],
      lastTakenAt: new Date(row.lastTakenAt),
    })),
    total: totalRow?.total ?? 0,
  };
}

/**
 * Where the reader was in the books they are reading, newest first: a book they put on Read has
 * been finished and leaves this list (docs/decisions/0102).
 */
export async function listContinueReading(
  db: Queryable,
  { userId, showExplicit, limit, bookId }: { userId: string; showExplicit: boolean; limit: number; bookId?: number },
): Promise<Array<{ book: BookCardRow; page: number; percentage: number | null; format: ReaderFormat | null; updatedAt: Date }>> {
  const rows = await db
    .select({
      book: cardColumns,
      page: readingPositions.page,
      percentage: readingPositions.percentage,
      format: readingPositions.format,
      updatedAt: readingPositions.updatedAt,
    })
    .from(readingPositions)
    .innerJoin(books, eq(books.id, readingPositions.bookId))
    .innerJoin(users, eq(users.id, books.authorId))
    .leftJoin(shelfEntries, and(eq(shelfEntries.userId, readingPositions.userId), eq(shelfEntries.bookId, readingPositions.bookId)))
    .where(
      and(
        eq(readingPositions.userId, userId),
        bookId === undefined ? undefined : eq(readingPositions.bookId, bookId),
        sql`${shelfEntries.shelf} is distinct from 'read'`,
        listedFor(showExplicit),
      ),
    )
    .orderBy(desc(readingPositions.updatedAt), desc(readingPositions.bookId))
    .limit(limit);
  return rows.map((row) => ({ ...row, format: row.format as ReaderFormat | null }));
}

/** A reader's account by username, case-insensitively, with what decides whether their page shows. */
export async function findReaderByUsername(
  db: Queryable,
  username: string,
): Promise<{ id: string; username: string; shelvesPublic: boolean; suspended: boolean; deleted: boolean } | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      shelvesPublic: users.shelvesPublic,
      suspended: sql<boolean>`${isNotNull(users.suspendedAt)}`,
      deleted: sql<boolean>`${isNotNull(users.deletedAt)}`,
    })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row;
}

/** The first books of each shelf as a visitor may see them, and each shelf's count. */
export async function listPublicShelves(
  db: Queryable,
  { userId, showExplicit, limit }: { userId: string; showExplicit: boolean; limit: number },
): Promise<Record<Shelf, { rows: BookCardRow[]; total: number }>> {
  const shelves = ["want", "reading", "read"] as const;
  const lists = await Promise.all(
    shelves.map((shelf) => listShelf(db, { userId, shelf, showExplicit, limit, offset: 0 })),
  );
  return Object.fromEntries(shelves.map((shelf, index) => [shelf, { rows: lists[index]!.rows.map((row) => row.book), total: lists[index]!.total }])) as Record<
    Shelf,
    { rows: BookCardRow[]; total: number }
  >;
}

/** The reader's shelves, oldest first, with each book's title: the reader's export. */
export async function listShelfEntriesOf(db: Queryable, userId: string): Promise<Array<{ bookId: number; bookTitle: string; shelf: Shelf; shelvedAt: Date }>> {
  return db
    .select({ bookId: shelfEntries.bookId, bookTitle: books.title, shelf: shelfEntries.shelf, shelvedAt: shelfEntries.updatedAt })
    .from(shelfEntries)
    .innerJoin(books, eq(books.id, shelfEntries.bookId))
    .where(eq(shelfEntries.userId, userId))
    .orderBy(shelfEntries.createdAt, shelfEntries.bookId);
}

export async function deleteShelfEntriesOf(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(shelfEntries).where(eq(shelfEntries.userId, userId));
}
