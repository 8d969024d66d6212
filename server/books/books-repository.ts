import { type SQL, and, asc, desc, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { CatalogQuery } from "../../shared/books.ts";
import type { Queryable } from "../db/client.ts";
import { type Book, books, downloads, users } from "../db/schema.ts";
import { toPrefixTsQuery } from "./catalog-search.ts";

export interface AuthorColumns {
  authorFirstName: string | null;
  authorLastName: string | null;
  authorEmail: string | null;
}
export type BookWithAuthor = Book & AuthorColumns;

const withAuthor = {
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
};

const isListed = and(eq(books.isPublished, true), isNull(books.deletedAt))!;

function selectBooksWithAuthor(db: Queryable) {
  return db
    .select({ ...getTableColumns(books), ...withAuthor })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId));
}

const SORT_ORDERS: Record<NonNullable<CatalogQuery["sort"]>, SQL[]> = {
  newest: [desc(books.createdAt), desc(books.id)],
  downloads: [desc(books.downloadCount), desc(books.id)],
  rating: [desc(books.rating), desc(books.reviewCount), desc(books.id)],
  title: [asc(sql`lower(${books.title})`), asc(books.id)],
};

/** The public catalog: listed books, filtered, searched (ranked) and sorted, one page. */
export async function listCatalog(db: Queryable, query: CatalogQuery): Promise<BookWithAuthor[]> {
  const conditions: SQL[] = [isListed];
  if (query.genre) conditions.push(eq(books.genre, query.genre));
  let relevance: SQL[] = [];
  if (query.search) {
    const tsQuery = toPrefixTsQuery(query.search);
    if (!tsQuery) return [];
    const matchesText = sql`${books}.search_vector @@ to_tsquery('simple', plume_unaccent(${tsQuery}))`;
    // Fuzzy fallback on titles for typos ("mañnaa"): trigram word similarity, index-backed.
    const resemblesTitle = sql`plume_unaccent(lower(${books.title})) %> plume_unaccent(lower(${query.search}))`;
    conditions.push(sql`(${matchesText} or ${resemblesTitle})`);
    relevance = [
      desc(sql`ts_rank_cd(${books}.search_vector, to_tsquery('simple', plume_unaccent(${tsQuery})))`),
      desc(sql`word_similarity(plume_unaccent(lower(${query.search})), plume_unaccent(lower(${books.title})))`),
    ];
  }
  const order = query.sort ? SORT_ORDERS[query.sort] : [...relevance, ...SORT_ORDERS.newest];
  return selectBooksWithAuthor(db)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
}

/** A book that has not been deleted (published or not), with its author. */
export async function findLiveBook(db: Queryable, id: number): Promise<BookWithAuthor | undefined> {
  const [book] = await selectBooksWithAuthor(db).where(and(eq(books.id, id), isNull(books.deletedAt)));
  return book;
}

/** Locks a live book row until the transaction ends: downloads and ratings of one book go one at a time. */
export async function lockLiveBook(tx: Queryable, id: number): Promise<Book | undefined> {
  const [book] = await tx
    .select()
    .from(books)
    .where(and(eq(books.id, id), isNull(books.deletedAt)))
    .for("update");
  return book;
}

export async function listAuthorBooks(db: Queryable, authorId: string): Promise<BookWithAuthor[]> {
  return selectBooksWithAuthor(db)
    .where(and(eq(books.authorId, authorId), isNull(books.deletedAt)))
    .orderBy(desc(books.createdAt), desc(books.id));
}

export async function countListedBooksOf(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(and(eq(books.authorId, authorId), isListed));
  return row!.count;
}

export async function insertBook(db: Queryable, values: typeof books.$inferInsert): Promise<Book> {
  const [book] = await db.insert(books).values(values).returning();
  return book!;
}

export async function updateBook(db: Queryable, id: number, values: Partial<typeof books.$inferInsert>): Promise<void> {
  await db.update(books).set(values).where(eq(books.id, id));
}

export interface PublicStats {
  totalBooks: number;
  totalAuthors: number;
  totalDownloads: number;
}

export async function readPublicStats(db: Queryable): Promise<PublicStats> {
  const [row] = await db
    .select({
      totalBooks: sql<number>`count(*)::int`,
      totalAuthors: sql<number>`count(distinct ${books.authorId})::int`,
      totalDownloads: sql<number>`coalesce(sum(${books.downloadCount}), 0)::int`,
    })
    .from(books)
    .where(isListed);
  return row!;
}

/** Counted downloads of an author's books (deleted ones included: history is kept) per month, from `since`. */
export async function countAuthorDownloadsByMonth(
  db: Queryable,
  authorId: string,
  since: Date,
): Promise<Array<{ month: string; downloads: number }>> {
  const month = sql<string>`to_char(date_trunc('month', ${downloads.downloadedAt} at time zone 'UTC'), 'YYYY-MM')`;
  return db
    .select({ month, downloads: sql<number>`count(*)::int` })
    .from(downloads)
    .innerJoin(books, eq(books.id, downloads.bookId))
    .where(and(eq(books.authorId, authorId), eq(downloads.counted, true), sql`${downloads.downloadedAt} >= ${since}`))
    .groupBy(month);
}

export async function sumAuthorDownloads(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${books.downloadCount}), 0)::int` })
    .from(books)
    .where(eq(books.authorId, authorId));
  return row!.total;
}
