import { desc, eq } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { bookDocuments } from "../db/schema.ts";

/** Which of an edition's files a KOReader document id names: its own file, or the EPUB Plume made from it. */
export type BookDocumentFile = "file" | "epub";

/**
 * Keeps the KOReader document id of a file Plume serves or served for an edition of a book
 * (docs/product.md#progress-sync). An EPUB made again (a new title or cover) adds its id beside the
 * ones before it: a device holding an earlier one still syncs, in the same edition.
 */
export async function saveBookDocument(db: Queryable, bookId: number, file: BookDocumentFile, edition: number, partialMd5: string): Promise<void> {
  await db.insert(bookDocuments).values({ bookId, file, edition, partialMd5 }).onConflictDoNothing();
}

/**
 * The books' files KOReader calls by this id (usually one; copies of one file are refused at upload), the
 * newest edition first: a book whose newer edition went back to an older text is read in the newer.
 */
export async function findBookDocuments(db: Queryable, partialMd5: string): Promise<{ bookId: number; file: BookDocumentFile; edition: number }[]> {
  const rows = await db
    .select({ bookId: bookDocuments.bookId, file: bookDocuments.file, edition: bookDocuments.edition })
    .from(bookDocuments)
    .where(eq(bookDocuments.partialMd5, partialMd5))
    .orderBy(bookDocuments.bookId, desc(bookDocuments.edition));
  return rows.map((row) => ({ ...row, file: row.file as BookDocumentFile }));
}
