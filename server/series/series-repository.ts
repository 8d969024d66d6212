import { and, asc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { books, series, users } from "../db/schema.ts";
import { type AuthorColumns, type BookCardRow, cardColumns, listedFor } from "../books/books-repository.ts";

/** The series an author writes (docs/product.md#series-and-tags); a book names its series by books.series_id. */

export type SeriesRow = typeof series.$inferSelect;
export type SeriesWithAuthor = SeriesRow & AuthorColumns;

export async function insertSeries(tx: Queryable, values: { authorId: string; title: string; description: string }): Promise<SeriesRow> {
  const [row] = await tx.insert(series).values(values).returning();
  return row!;
}

export async function updateSeries(tx: Queryable, id: number, values: { title: string; description: string }): Promise<SeriesRow> {
  const [row] = await tx
    .update(series)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(series.id, id))
    .returning();
  return row!;
}

/** Its books stay, out of any series (the foreign key sets their series to null). */
export async function deleteSeries(tx: Queryable, id: number): Promise<void> {
  await tx.delete(series).where(eq(series.id, id));
}

/** Every series of an account: its deletion (users rows are soft-deleted, so the cascade never fires). */
export async function deleteSeriesOf(tx: Queryable, authorId: string): Promise<void> {
  await tx.delete(series).where(eq(series.authorId, authorId));
}

export async function lockSeries(tx: Queryable, id: number): Promise<SeriesRow | undefined> {
  const [row] = await tx.select().from(series).where(eq(series.id, id)).for("update");
  return row;
}

export async function findSeries(db: Queryable, id: number): Promise<SeriesWithAuthor | undefined> {
  const [row] = await db
    .select({ ...seriesColumns, authorFirstName: users.firstName, authorLastName: users.lastName, authorEmail: users.email, authorDeletedAt: users.deletedAt })
    .from(series)
    .innerJoin(users, eq(users.id, series.authorId))
    .where(eq(series.id, id));
  if (!row || row.authorDeletedAt) return undefined;
  const { authorDeletedAt: _deleted, ...found } = row;
  return found;
}

const seriesColumns = {
  id: series.id,
  authorId: series.authorId,
  title: series.title,
  description: series.description,
  createdAt: series.createdAt,
  updatedAt: series.updatedAt,
};

/** An author's series, by title, each with the number of its books not deleted. */
export async function listSeriesOf(db: Queryable, authorId: string): Promise<Array<SeriesRow & { bookCount: number }>> {
  return db
    .select({ ...seriesColumns, bookCount: sql<number>`count(${books.id})::int` })
    .from(series)
    .leftJoin(books, and(eq(books.seriesId, series.id), isNull(books.deletedAt)))
    .where(eq(series.authorId, authorId))
    .groupBy(series.id)
    .orderBy(asc(sql`lower(${series.title})`), asc(series.id));
}

export type VolumeRow = BookCardRow & { seriesVolume: string };

/** A series' listed books for this reader, in volume order (the partial index books_series_idx). */
export async function listListedVolumes(db: Queryable, seriesId: number, showExplicit: boolean): Promise<VolumeRow[]> {
  const rows = await db
    .select({ ...cardColumns, seriesVolume: books.seriesVolume })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(and(eq(books.seriesId, seriesId), listedFor(showExplicit)))
    .orderBy(asc(books.seriesVolume), asc(books.id));
  return rows as VolumeRow[];
}

/** The first listed volume after this one, for "next in the series", and how many volumes the reader sees. */
export async function findNextVolume(
  db: Queryable,
  seriesId: number,
  volume: string,
  showExplicit: boolean,
): Promise<{ next: { id: number; title: string; volume: string } | undefined; volumes: number }> {
  const [next] = await db
    .select({ id: books.id, title: books.title, volume: books.seriesVolume })
    .from(books)
    .where(and(eq(books.seriesId, seriesId), gt(books.seriesVolume, volume), listedFor(showExplicit)))
    .orderBy(asc(books.seriesVolume), asc(books.id))
    .limit(1);
  const [count] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(and(eq(books.seriesId, seriesId), listedFor(showExplicit)));
  return { next: next as { id: number; title: string; volume: string } | undefined, volumes: count!.count };
}

/** The series that hold at least one listed book, for the sitemap and OPDS's list of series. */
export async function listListedSeries(db: Queryable, limit: number, offset = 0): Promise<Array<{ id: number; title: string; updatedAt: Date }>> {
  return db
    .select({ id: series.id, title: series.title, updatedAt: series.updatedAt })
    .from(series)
    .where(inArray(series.id, db.selectDistinct({ seriesId: books.seriesId }).from(books).where(and(isNotNull(books.seriesId), listedFor(false)))))
    .orderBy(asc(series.id))
    .limit(limit)
    .offset(offset);
}

/** Whether a book not deleted already holds this volume of this series (another than `exceptBookId`). */
export async function volumeHolder(db: Queryable, seriesId: number, volume: number, exceptBookId?: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: books.id })
    .from(books)
    .where(and(eq(books.seriesId, seriesId), eq(books.seriesVolume, volume.toFixed(2)), isNull(books.deletedAt), exceptBookId === undefined ? undefined : sql`${books.id} <> ${exceptBookId}`))
    .limit(1);
  return row?.id;
}

/** The series and volume of each of these books that has one (OPDS entries' series links). */
export async function listSeriesOfBooks(db: Queryable, bookIds: readonly number[]): Promise<Map<number, { id: number; title: string; volume: number }>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .select({ bookId: books.id, id: series.id, title: series.title, volume: books.seriesVolume })
    .from(books)
    .innerJoin(series, eq(series.id, books.seriesId))
    .where(inArray(books.id, [...bookIds]));
  return new Map(rows.map((row) => [row.bookId, { id: row.id, title: row.title, volume: Number(row.volume) }]));
}

export async function countListedSeries(db: Queryable): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${books.seriesId})::int` })
    .from(books)
    .where(and(isNotNull(books.seriesId), listedFor(false)));
  return row!.count;
}
