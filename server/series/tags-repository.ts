import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { TagInput } from "../../shared/series-and-tags.ts";
import type { Queryable } from "../db/client.ts";
import { bookTags, books, tags } from "../db/schema.ts";
import { isListed } from "../books/books-repository.ts";

/** Tags and the books that carry them (docs/product.md#series-and-tags). */

/** The ids of these tags, made where missing: the first written form of a slug stays its name. */
export async function ensureTags(tx: Queryable, wanted: readonly TagInput[]): Promise<number[]> {
  if (wanted.length === 0) return [];
  await tx.insert(tags).values(wanted.map(({ slug, name }) => ({ slug, name }))).onConflictDoNothing({ target: tags.slug });
  const rows = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.slug, wanted.map((tag) => tag.slug)));
  return rows.map((row) => row.id);
}

/** A book's tags become exactly these. */
export async function replaceBookTags(tx: Queryable, bookId: number, tagIds: readonly number[]): Promise<void> {
  await tx.delete(bookTags).where(eq(bookTags.bookId, bookId));
  if (tagIds.length > 0) await tx.insert(bookTags).values(tagIds.map((tagId) => ({ bookId, tagId })));
}

/** A deleted book carries no tags: they leave the tag's pages and counts with it. */
export async function deleteBookTags(tx: Queryable, bookId: number): Promise<void> {
  await tx.delete(bookTags).where(eq(bookTags.bookId, bookId));
}

/** The tags of every book of an author's (an account's deletion withdraws its books). */
export async function deleteBookTagsOfAuthor(tx: Queryable, authorId: string): Promise<void> {
  await tx.delete(bookTags).where(sql`${bookTags.bookId} in (select ${books.id} from ${books} where ${books.authorId} = ${authorId})`);
}

export async function listBookTags(db: Queryable, bookId: number): Promise<Array<{ slug: string; name: string }>> {
  return db
    .select({ slug: tags.slug, name: tags.name })
    .from(bookTags)
    .innerJoin(tags, eq(tags.id, bookTags.tagId))
    .where(eq(bookTags.bookId, bookId))
    .orderBy(asc(tags.slug));
}

/** The tags of many books at once (OPDS entries' categories). */
export async function listTagsOfBooks(db: Queryable, bookIds: readonly number[]): Promise<Map<number, Array<{ slug: string; name: string }>>> {
  const byBook = new Map<number, Array<{ slug: string; name: string }>>();
  if (bookIds.length === 0) return byBook;
  const rows = await db
    .select({ bookId: bookTags.bookId, slug: tags.slug, name: tags.name })
    .from(bookTags)
    .innerJoin(tags, eq(tags.id, bookTags.tagId))
    .where(inArray(bookTags.bookId, [...bookIds]))
    .orderBy(asc(tags.slug));
  for (const { bookId, ...tag } of rows) byBook.set(bookId, [...(byBook.get(bookId) ?? []), tag]);
  return byBook;
}

/** A tag by its slug, with the number of listed books that carry it. */
export async function findTag(db: Queryable, slug: string): Promise<{ slug: string; name: string; books: number } | undefined> {
  const [row] = await db
    .select({ slug: tags.slug, name: tags.name, books: sql<number>`count(${books.id})::int` })
    .from(tags)
    .leftJoin(bookTags, eq(bookTags.tagId, tags.id))
    .leftJoin(books, and(eq(books.id, bookTags.bookId), isListed))
    .where(eq(tags.slug, slug))
    .groupBy(tags.id);
  return row;
}

/**
 * The tags whose slug starts with this prefix and that some listed book carries, most used first
 * (tags_slug_prefix_idx reads the prefix; book_tags_tag_idx counts each tag's books).
 */
export async function suggestTags(db: Queryable, prefix: string, limit: number): Promise<Array<{ slug: string; name: string; books: number }>> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const count = sql<number>`count(*)::int`;
  return db
    .select({ slug: tags.slug, name: tags.name, books: count })
    .from(tags)
    .innerJoin(bookTags, eq(bookTags.tagId, tags.id))
    .innerJoin(books, and(eq(books.id, bookTags.bookId), isListed))
    .where(sql`${tags.slug} like ${pattern}`)
    .groupBy(tags.id)
    .orderBy(sql`count(*) desc`, asc(tags.slug))
    .limit(limit);
}

/** Tags carried by at least one listed book, for the sitemap and OPDS's list of tags. */
export async function listListedTags(db: Queryable, limit: number): Promise<Array<{ slug: string; name: string; books: number }>> {
  return db
    .select({ slug: tags.slug, name: tags.name, books: sql<number>`count(*)::int` })
    .from(tags)
    .innerJoin(bookTags, eq(bookTags.tagId, tags.id))
    .innerJoin(books, and(eq(books.id, bookTags.bookId), isListed, sql`${books.contentRating} <> 'explicit'`))
    .groupBy(tags.id)
    .orderBy(sql`count(*) desc`, asc(tags.slug))
    .limit(limit);
}
