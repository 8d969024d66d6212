import { eq } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { bookDocuments } from "../db/schema.ts";

/** Which of a book's files a KOReader document id names: its own file, or the EPUB Plume made from it. */
export type BookDocumentFile = "file" | "epub";

/** Keeps the KOReader document id of a file Plume serves for a book (docs/product.md#progress-sync). */
export async function saveBookDocument(db: Queryable, bookId: number, file: BookDocumentFile, partialMd5: string): Promise<void> {
  await db
    .insert(bookDocuments)
    .values({ bookId, file, partialMd5 })
    .onConflictDoUpdate({ target: [bookDocuments.bookId, bookDocuments.file], set: { partialMd5 } });
}

/** The books whose files KOReader calls by this id (usually one; copies of one file are refused at upload). */
export async function findBookDocuments(db: Queryable, partialMd5: string): Promise<{ bookId: number; file: BookDocumentFile }[]> {
  const rows = await db.select({ bookId: bookDocuments.bookId, file: bookDocuments.file }).from(bookDocuments).where(eq(bookDocuments.partialMd5, partialMd5));
  return rows.map((row) => ({ bookId: row.bookId, file: row.file as BookDocumentFile }));
}
