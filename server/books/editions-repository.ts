import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { bookEditions, books } from "../db/schema.ts";

/** A book's editions (docs/product.md#editions): the only place that writes SQL for `book_editions`. */

export type BookEditionRow = typeof bookEditions.$inferSelect;

export async function insertEdition(tx: Queryable, values: typeof bookEditions.$inferInsert): Promise<BookEditionRow> {
  const [edition] = await tx.insert(bookEditions).values(values).returning();
  return edition!;
}

/** The page count an edition had while it was current, kept when a newer one replaces it (docs/product.md#progress-sync). */
export async function keepPageCountOfEdition(tx: Queryable, bookId: number, number: number, pageCount: number | null): Promise<void> {
  if (pageCount === null) return;
  await tx
    .update(bookEditions)
    .set({ pageCount })
    .where(and(eq(bookEditions.bookId, bookId), eq(bookEditions.number, number)));
}

/** A book's editions, newest first. */
export async function listEditions(db: Queryable, bookId: number): Promise<BookEditionRow[]> {
  return db.select().from(bookEditions).where(eq(bookEditions.bookId, bookId)).orderBy(desc(bookEditions.number));
}

export async function findEdition(db: Queryable, bookId: number, number: number): Promise<BookEditionRow | undefined> {
  const [edition] = await db
    .select()
    .from(bookEditions)
    .where(and(eq(bookEditions.bookId, bookId), eq(bookEditions.number, number)));
  return edition;
}

/**
 * The files of these books' editions before their current one: kept while the book lives (readers may
 * take them), removed with it, and counted in its author's storage.
 */
export async function listOlderEditionFiles(db: Queryable, bookIds: number[]): Promise<Array<{ bookId: number; filePath: string }>> {
  if (bookIds.length === 0) return [];
  return db
    .select({ bookId: bookEditions.bookId, filePath: bookEditions.filePath })
    .from(bookEditions)
    .innerJoin(books, eq(books.id, bookEditions.bookId))
    .where(and(inArray(bookEditions.bookId, bookIds), lt(bookEditions.number, books.edition), sql`${bookEditions.filePath} <> ${books.filePath}`));
}

/** Every older edition's file of a live book: what the start-up sweep keeps besides the books' own (orphan-files.ts). */
export async function listLiveOlderEditionFiles(db: Queryable): Promise<string[]> {
  const rows = await db
    .select({ filePath: bookEditions.filePath })
    .from(bookEditions)
    .innerJoin(books, eq(books.id, bookEditions.bookId))
    .where(and(isNull(books.deletedAt), lt(bookEditions.number, books.edition)));
  return rows.map((row) => row.filePath);
}

/** The bytes of live books' older editions, of one author or of everyone: counted in the storage quota with the books' own files. */
export const olderEditionBytes = (authorId?: string) => sql<string>`(
  select coalesce(sum("book_editions"."file_size"), 0) from "book_editions"
  inner join "books" as "edited" on "edited"."id" = "book_editions"."book_id"
  where "edited"."deleted_at" is null and "book_editions"."number" < "edited"."edition"
  ${authorId === undefined ? sql`` : sql`and "edited"."author_id" = ${authorId}`}
)`;

/** The edition that was current at `at`: the newest created by then (the first when none was). */
export function editionAt(editions: Pick<BookEditionRow, "number" | "createdAt">[], at: Date): number {
  const byThen = editions.filter((edition) => edition.createdAt.getTime() <= at.getTime()).map((edition) => edition.number);
  return byThen.length > 0 ? Math.max(...byThen) : 1;
}

/** Every edition of these books, oldest first: the author's export. */
export async function listEditionsOfBooks(db: Queryable, bookIds: number[]): Promise<BookEditionRow[]> {
  if (bookIds.length === 0) return [];
  return db.select().from(bookEditions).where(inArray(bookEditions.bookId, bookIds)).orderBy(bookEditions.bookId, bookEditions.number);
}
