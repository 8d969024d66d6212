import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { readingPositions } from "../db/schema.ts";

/** Every query names the reader: a position is only ever read or written for its own reader (docs/product.md#reading). */

export async function findReadingPosition(db: Queryable, readerId: string, bookId: number): Promise<number | null> {
  const [row] = await db
    .select({ page: readingPositions.page })
    .from(readingPositions)
    .where(and(eq(readingPositions.userId, readerId), eq(readingPositions.bookId, bookId)));
  return row?.page ?? null;
}

export async function saveReadingPosition(db: Queryable, readerId: string, bookId: number, page: number, at: Date): Promise<void> {
  await db
    .insert(readingPositions)
    .values({ userId: readerId, bookId, page, updatedAt: at })
    .onConflictDoUpdate({ target: [readingPositions.userId, readingPositions.bookId], set: { page, updatedAt: at } });
}

export async function deleteReadingPositionsOf(tx: Queryable, readerId: string): Promise<void> {
  await tx.delete(readingPositions).where(eq(readingPositions.userId, readerId));
}
