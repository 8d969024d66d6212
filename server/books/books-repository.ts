import { type SQL, and, asc, desc, eq, getTableColumns, gte, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { type Book, books, reviews, users } from "../db/schema.ts";
import { olderEditionBytes } from "./editions-repository.ts";

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

/**
 * Published, not deleted and not restricted by moderation: what the catalog, the feeds, OPDS, the
 * sitemap and an author's public count show. The catalog's partial indexes have the same condition.
 */
export const isListed = and(eq(books.isPublished, true), isNull(books.deletedAt), isNull(books.moderationState))!;

/**
 * Listed, and not explicit unless the reader chose to see explicit books (docs/product.md#content-ratings).
 * Still within the catalog's partial indexes: the rating is checked on the rows they give.
 */
export const listedFor = (showExplicit: boolean): SQL => (showExplicit ? isListed : and(isListed, ne(books.contentRating, "explicit"))!);

/** What a book card shows (present-book.ts): the catalog reads these columns and no others. */
export const cardColumns = {
  id: books.id,
  title: books.title,
  description: books.description,
  genre: books.genre,
  language: books.language,
  contentRating: books.contentRating,
  authorId: books.authorId,
  filePath: books.filePath,
  fileSize: books.fileSize,
  mimeType: books.mimeType,
  epubSize: books.epubSize,
  pageCount: books.pageCount,
  coverImageUrl: books.coverImageUrl,
  downloadCount: books.downloadCount,
  rating: books.rating,
  reviewCount: books.reviewCount,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
  ...withAuthor,
};
export type BookCardRow = Pick<Book, Exclude<keyof typeof cardColumns, keyof AuthorColumns>> & AuthorColumns;

function selectBooksWithAuthor(db: Queryable) {
  return db
    .select({ ...getTableColumns(books), ...withAuthor })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId));
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

/**
 * Locks a book row, its author's deletion notwithstanding: moderation still decides about a book its
 * author deleted while it was reported (docs/product.md#moderation).
 */
export async function lockBookEvenDeleted(tx: Queryable, id: number): Promise<Book | undefined> {
  const [book] = await tx.select().from(books).where(eq(books.id, id)).for("update");
  return book;
}

export async function listAuthorBooks(db: Queryable, authorId: string): Promise<BookWithAuthor[]> {
  return selectBooksWithAuthor(db)
    .where(and(eq(books.authorId, authorId), isNull(books.deletedAt)))
    .orderBy(desc(books.createdAt), desc(books.id));
}

/** An author's published, live books with their author, newest first: what a reader who does or does not see explicit books may see of them. */
export async function listListedAuthorBooks(db: Queryable, authorId: string, showExplicit: boolean): Promise<BookWithAuthor[]> {
  return selectBooksWithAuthor(db)
    .where(and(eq(books.authorId, authorId), listedFor(showExplicit)))
    .orderBy(desc(books.createdAt), desc(books.id));
}

export async function countListedBooksOf(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(and(eq(books.authorId, authorId), isListed));
  return row!.count;
}

/** Any book of the author's, deleted ones included. */
export async function hasEverPublished(tx: Queryable, authorId: string): Promise<boolean> {
  const [row] = await tx.select({ id: books.id }).from(books).where(eq(books.authorId, authorId)).limit(1);
  return Boolean(row);
}

export async function insertBook(db: Queryable, values: typeof books.$inferInsert): Promise<Book> {
  const [book] = await db.insert(books).values(values).returning();
  return book!;
}

export async function updateBook(db: Queryable, id: number, values: Partial<typeof books.$inferInsert>): Promise<void> {
  await db.update(books).set(values).where(eq(books.id, id));
}

/** A Word book's page count, from its reading view (docs/decisions/0051); false when the book is gone. */
export async function setPageCountOfLiveBook(db: Queryable, id: number, pageCount: number): Promise<boolean> {
  const updated = await db.update(books).set({ pageCount }).where(and(eq(books.id, id), isNull(books.deletedAt))).returning({ id: books.id });
  return updated.length > 0;
}

/** A counted download: the book's count grows by one, and its first counted download is dated. */
export async function incrementDownloadCount(tx: Queryable, book: Book, at: Date): Promise<Book> {
  const [updated] = await tx
    .update(books)
    .set({ downloadCount: sql`${books.downloadCount} + 1`, firstDownloadDate: book.firstDownloadDate ?? at })
    .where(eq(books.id, book.id))
    .returning();
  return updated!;
}

/** The admin sets a book's first-book flag (docs/product.md#admin). */
/** The author's book marked first, deleted or not: there is at most one (books_one_first_book_per_author). */
export async function findFirstBookOf(tx: Queryable, authorId: string): Promise<Pick<Book, "id" | "title"> | undefined> {
  const [book] = await tx
    .select({ id: books.id, title: books.title })
    .from(books)
    .where(and(eq(books.authorId, authorId), eq(books.firstBook, true)));
  return book;
}

export async function setFirstBook(tx: Queryable, id: number, firstBook: boolean): Promise<Book> {
  const [updated] = await tx.update(books).set({ firstBook }).where(eq(books.id, id)).returning();
  return updated!;
}

/** A book's average and number of ratings, recomputed from its reviews (in the transaction that changed them). */
export async function refreshRating(tx: Queryable, id: number): Promise<{ rating: string; reviewCount: number }> {
  const [updated] = await tx
    .update(books)
    .set({
      // A book whose last rating was removed (its reader deleted it or their account) is back to unrated: 0.
      // A review moderation removed no longer counts (docs/product.md#reviews).
      rating: sql`(select coalesce(round(avg(${reviews.rating})::numeric, 2), 0) from ${reviews} where ${reviews.bookId} = ${id} and ${reviews.moderationDecisionId} is null)`,
      reviewCount: sql`(select count(*)::int from ${reviews} where ${reviews.bookId} = ${id} and ${reviews.moderationDecisionId} is null)`,
    })
    .where(eq(books.id, id))
    .returning({ rating: books.rating, reviewCount: books.reviewCount });
  return updated!;
}

/** The stored files every live book points at (server/books/orphan-files.ts keeps these, removes the rest). */
export async function listLiveBookFiles(db: Queryable): Promise<Array<{ filePath: string; coverImageUrl: string | null }>> {
  return db.select({ filePath: books.filePath, coverImageUrl: books.coverImageUrl }).from(books).where(isNull(books.deletedAt));
}

/** What filling a book's cover and page count needs to know about it (server/books/covers-service.ts). */
export type BookForCover = Pick<Book, "id" | "title" | "genre" | "filePath" | "mimeType" | "pageCount" | "coverImageUrl" | "createdAt"> & AuthorColumns;

const PDF_MIME_TYPE = "application/pdf";
const lacksCoverOrPageCount = or(isNull(books.coverImageUrl), and(eq(books.mimeType, PDF_MIME_TYPE), isNull(books.pageCount)))!;

function selectBooksForCover(db: Queryable) {
  return db
    .select({
      id: books.id,
      title: books.title,
      genre: books.genre,
      filePath: books.filePath,
      mimeType: books.mimeType,
      pageCount: books.pageCount,
      coverImageUrl: books.coverImageUrl,
      createdAt: books.createdAt,
      ...withAuthor,
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId));
}

/** A live book, as filling its cover needs it. */
export async function findBookForCover(db: Queryable, id: number): Promise<BookForCover | undefined> {
  const [book] = await selectBooksForCover(db).where(and(eq(books.id, id), isNull(books.deletedAt)));
  return book;
}

/**
 * Live books without a cover, or PDFs without a page count, oldest first, after the id given (a
 * cursor: a book that cannot be filled is passed over, not read again). `uploadedSince` keeps to books
 * uploaded since then (a PDF whose upload was interrupted, a Word book whose cover could not be drawn),
 * not the books from before covers existed.
 */
export async function listBooksLackingCover(
  db: Queryable,
  { afterId, limit, uploadedSince }: { afterId: number; limit: number; uploadedSince?: Date },
): Promise<BookForCover[]> {
  const scope = uploadedSince ? gte(books.createdAt, uploadedSince) : undefined;
  return selectBooksForCover(db)
    .where(and(isNull(books.deletedAt), sql`${books.id} > ${afterId}`, lacksCoverOrPageCount, scope))
    .orderBy(asc(books.id))
    .limit(limit);
}

/** Every book the author uploaded, deleted ones too, in upload order: the author's export. */
export async function listEveryBookOf(db: Queryable, authorId: string): Promise<Book[]> {
  return db.select().from(books).where(eq(books.authorId, authorId)).orderBy(asc(books.id));
}

/**
 * Locks the author's live books and these others, in id order, before a transaction writes to them:
 * each of those writes takes the catalog revision's row as well (migrations 0008 and 0021), so a
 * transaction writing to several books must hold them all first, or it could wait for one book
 * while holding that row that the book's own writer waits for (docs/decisions/0077).
 */
export async function lockBooksOf(tx: Queryable, authorId: string, otherIds: number[]): Promise<void> {
  await tx
    .select({ id: books.id })
    .from(books)
    .where(or(and(eq(books.authorId, authorId), isNull(books.deletedAt)), inArray(books.id, otherIds)))
    .orderBy(asc(books.id))
    .for("update");
}

/** Withdraws all the author's live books at once (their account is deleted); answers the files to remove once committed. */
export async function withdrawBooksOf(tx: Queryable, authorId: string, at: Date): Promise<Array<{ id: number; filePath: string; coverImageUrl: string | null }>> {
  return tx
    .update(books)
    .set({ deletedAt: at, isPublished: false })
    .where(and(eq(books.authorId, authorId), isNull(books.deletedAt)))
    .returning({ id: books.id, filePath: books.filePath, coverImageUrl: books.coverImageUrl });
}

/**
 * The bytes of live books' files, of one author or (without one) of everyone: what the storage quota
 * counts (docs/decisions/0055). A deleted book's file is removed with it, so it counts no more.
 */
export async function sumLiveFileSizes(db: Queryable, authorId?: string): Promise<number> {
  const [row] = await db
    // Their older editions' files are kept too (docs/product.md#editions), and count as much.
    .select({ bytes: sql<string>`coalesce(sum(${books.fileSize}), 0)`, olderBytes: olderEditionBytes(authorId) })
    .from(books)
    .where(and(isNull(books.deletedAt), authorId === undefined ? undefined : eq(books.authorId, authorId)));
  return Number(row!.bytes) + Number(row!.olderBytes);
}

export async function countLiveBooksOf(db: Queryable, authorId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(and(eq(books.authorId, authorId), isNull(books.deletedAt)));
  return row!.count;
}
