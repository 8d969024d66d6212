import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { bookEditions, bookFingerprintBands, bookFingerprints, books } from "../db/schema.ts";
import type { TextFingerprint } from "./text-fingerprints.ts";

/**
 * Serialises the copy checks of concurrent uploads until the transaction ends: two accounts uploading
 * the same book at once cannot both find nothing. Held only for the check and the insert, a few milliseconds.
 */
export async function lockCopyChecks(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('copy-checks'))`);
}

/**
 * A live book (published or not, restricted or not) with a file of these bytes, its current one or an
 * older edition's (docs/product.md#editions), its own author's first; `exceptBookId` is passed over
 * (a new edition may bring back one of its own book's older files).
 */
export async function findLiveBookWithFile(
  db: Queryable,
  sha256: string,
  authorId: string,
  exceptBookId?: number,
): Promise<{ id: number; title: string; authorId: string } | undefined> {
  const except = exceptBookId === undefined ? undefined : ne(books.id, exceptBookId);
  const [book] = await db
    .select({ id: books.id, title: books.title, authorId: books.authorId })
    .from(books)
    .where(and(eq(books.fileSha256, sha256), isNull(books.deletedAt), except))
    .orderBy(sql`${books.authorId} = ${authorId} desc`, books.id)
    .limit(1);
  if (book) return book;
  const [older] = await db
    .select({ id: books.id, title: books.title, authorId: books.authorId })
    .from(bookEditions)
    .innerJoin(books, eq(books.id, bookEditions.bookId))
    .where(and(eq(bookEditions.fileSha256, sha256), isNull(books.deletedAt), except))
    .orderBy(sql`${books.authorId} = ${authorId} desc`, books.id)
    .limit(1);
  return older;
}

/** Keeps a book's fingerprint, with its LSH bands when it has a signature. */
export async function insertFingerprint(tx: Queryable, bookId: number, fingerprint: TextFingerprint | null, bands: number[]): Promise<void> {
  await tx.insert(bookFingerprints).values({ bookId, signature: fingerprint?.signature ?? null, wordCount: fingerprint?.wordCount ?? null });
  if (bands.length > 0) await tx.insert(bookFingerprintBands).values(bands.map((hash, band) => ({ band, hash, bookId })));
}

export interface FingerprintCandidate {
  bookId: number;
  title: string;
  authorId: string;
  isPublished: boolean;
  moderationState: string | null;
  signature: number[];
}

/**
 * The live books of other accounts whose fingerprint shares at least one LSH band with `bands`: one
 * lookup of the bands' primary key per band (a bitmap OR), never a scan of every signature.
 */
export async function findBooksSharingBands(db: Queryable, bands: number[], authorId: string): Promise<FingerprintCandidate[]> {
  if (bands.length === 0) return [];
  const rows = await db
    .selectDistinct({
      bookId: books.id,
      title: books.title,
      authorId: books.authorId,
      isPublished: books.isPublished,
      moderationState: books.moderationState,
      signature: bookFingerprints.signature,
    })
    .from(bookFingerprintBands)
    .innerJoin(bookFingerprints, eq(bookFingerprints.bookId, bookFingerprintBands.bookId))
    .innerJoin(books, eq(books.id, bookFingerprintBands.bookId))
    .where(
      and(
        or(...bands.map((hash, band) => and(eq(bookFingerprintBands.band, band), eq(bookFingerprintBands.hash, hash)))),
        ne(books.authorId, authorId),
        isNull(books.deletedAt),
      ),
    );
  return rows.flatMap((row) => (row.signature ? [{ ...row, signature: row.signature }] : []));
}

/**
 * Live books not looked at yet (uploaded before fingerprints were kept, or while the checks were off),
 * or without their file's hash, oldest first, after `afterId`: what `npm run fingerprints:fill` does.
 */
export async function listBooksToFingerprint(db: Queryable, { afterId, limit }: { afterId: number; limit: number }) {
  return db
    .select({ id: books.id, title: books.title, authorId: books.authorId, filePath: books.filePath, fileSha256: books.fileSha256, fingerprinted: bookFingerprints.bookId })
    .from(books)
    .leftJoin(bookFingerprints, eq(bookFingerprints.bookId, books.id))
    .where(and(isNull(books.deletedAt), or(isNull(bookFingerprints.bookId), isNull(books.fileSha256)), gt(books.id, afterId)))
    .orderBy(books.id)
    .limit(limit);
}

export async function setFileSha256(tx: Queryable, bookId: number, sha256: string): Promise<void> {
  await tx.update(books).set({ fileSha256: sha256 }).where(eq(books.id, bookId));
}

/** Forgets a book's fingerprint and its bands: a new edition's text replaces them (docs/product.md#editions). */
export async function deleteFingerprint(tx: Queryable, bookId: number): Promise<void> {
  await tx.delete(bookFingerprints).where(eq(bookFingerprints.bookId, bookId));
}
