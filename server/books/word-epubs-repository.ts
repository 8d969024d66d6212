import { type SQL, and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { bookEditions, books, users } from "../db/schema.ts";
import { BOOK_MIME_TYPES } from "./file-types.ts";
import type { AuthorColumns } from "./books-repository.ts";

const WORD_MIME_TYPES = [BOOK_MIME_TYPES.docx, BOOK_MIME_TYPES.doc];

/** What making a book's EPUB reads of it and its author. */
export interface BookForEpub extends AuthorColumns {
  id: number;
  title: string;
  language: string;
  filePath: string;
  /** The edition the file is of: the made EPUB's KOReader id is that edition's. */
  edition: number;
  coverImageUrl: string | null;
  epubSize: number | null;
  epubFailedVersion: number | null;
}

/** What a made EPUB carries of its book's row: when the row's are no longer these, it is made again. */
export interface EpubCarries {
  title: string;
  language: string;
  coverUrl: string | null;
}

/**
 * A live Word book whose EPUB is to be made (docs/decisions/0096): never made and not failed by this
 * converter version or a newer one, or made with a title, language or cover that is no longer the book's.
 */
function needsEpub(converterVersion: number): SQL {
  return and(
    isNull(books.deletedAt),
    inArray(books.mimeType, WORD_MIME_TYPES),
    or(
      and(isNull(books.epubSize), or(isNull(books.epubFailedVersion), lt(books.epubFailedVersion, converterVersion))),
      and(
        isNotNull(books.epubSize),
        sql`(${books.epubTitle}, ${books.epubLanguage}, ${books.epubCoverUrl}) is distinct from (${books.title}, ${books.language}, ${books.coverImageUrl})`,
      ),
    ),
  )!;
}

const selectBooksForEpub = (db: Queryable) =>
  db
    .select({
      id: books.id,
      title: books.title,
      language: books.language,
      filePath: books.filePath,
      edition: books.edition,
      coverImageUrl: books.coverImageUrl,
      epubSize: books.epubSize,
      epubFailedVersion: books.epubFailedVersion,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      authorEmail: users.email,
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId));

/** The book if its EPUB is to be made now, else undefined (made, failed, gone, or not a Word book). */
export async function findBookNeedingEpub(db: Queryable, id: number, converterVersion: number): Promise<BookForEpub | undefined> {
  const [book] = await selectBooksForEpub(db).where(and(eq(books.id, id), needsEpub(converterVersion)));
  return book;
}

/** The next books whose EPUB is to be made, in id order after `afterId` (changed since `changedSince`, if given). */
export async function listBooksNeedingEpub(
  db: Queryable,
  { afterId, limit, converterVersion, changedSince }: { afterId: number; limit: number; converterVersion: number; changedSince?: Date },
): Promise<BookForEpub[]> {
  return selectBooksForEpub(db)
    .where(and(gt(books.id, afterId), needsEpub(converterVersion), changedSince ? gte(books.updatedAt, changedSince) : undefined))
    .orderBy(asc(books.id))
    .limit(limit);
}

/**
 * The made EPUB's size and what it carries; false when the book is gone meanwhile, or its file is no
 * longer the one the EPUB was made of (a new edition came: its own EPUB is queued).
 */
export async function setEpubOfLiveBook(db: Queryable, id: number, filePath: string, size: number, carries: EpubCarries): Promise<boolean> {
  const updated = await db
    .update(books)
    .set({ epubSize: size, epubTitle: carries.title, epubLanguage: carries.language, epubCoverUrl: carries.coverUrl, epubFailedVersion: null })
    .where(and(eq(books.id, id), eq(books.filePath, filePath), isNull(books.deletedAt)))
    .returning({ id: books.id });
  return updated.length > 0;
}

/** Remembers that this converter version could not make the book's EPUB. */
export async function setEpubFailed(db: Queryable, id: number, converterVersion: number): Promise<void> {
  await db.update(books).set({ epubFailedVersion: converterVersion }).where(eq(books.id, id));
}

/**
 * Live books' editions without the KOReader id of their own file (uploaded, or replaced by a newer edition,
 * before every edition's ids were kept), in the order of the editions' ids after `afterId`.
 */
export async function listEditionsLackingDocumentId(
  db: Queryable,
  { afterId, limit }: { afterId: number; limit: number },
): Promise<Array<{ id: number; bookId: number; number: number; filePath: string }>> {
  return db
    .select({ id: bookEditions.id, bookId: bookEditions.bookId, number: bookEditions.number, filePath: bookEditions.filePath })
    .from(bookEditions)
    .innerJoin(books, eq(books.id, bookEditions.bookId))
    .where(
      and(
        isNull(books.deletedAt),
        gt(bookEditions.id, afterId),
        sql`not exists (select 1 from book_documents d where d.book_id = ${bookEditions.bookId} and d.file = 'file' and d.edition = ${bookEditions.number})`,
      ),
    )
    .orderBy(asc(bookEditions.id))
    .limit(limit);
}
