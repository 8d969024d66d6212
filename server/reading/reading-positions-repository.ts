import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { ReaderFormat, SavedPosition } from "../../shared/reading.ts";
import type { Queryable } from "../db/client.ts";
import { readingPositions } from "../db/schema.ts";

/** Every query names the reader: a position is only ever read or written for its own reader (docs/product.md#reading). */

/** A place as it is saved: by the browser (no device) or by an e-reader through the KOReader sync calls. */
export interface PositionToSave {
  page: number;
  percentage?: number | null;
  locator?: string | null;
  format?: ReaderFormat | null;
  device?: string | null;
  deviceId?: string | null;
  /** The edition of the book's file it was taken in (docs/product.md#editions). */
  edition?: number | null;
}

export async function findReadingPosition(db: Queryable, readerId: string, bookId: number): Promise<(SavedPosition & { deviceId: string | null; edition: number | null; updatedAt: Date }) | null> {
  const [row] = await db
    .select({
      page: readingPositions.page,
      percentage: readingPositions.percentage,
      locator: readingPositions.locator,
      format: readingPositions.format,
      device: readingPositions.device,
      deviceId: readingPositions.deviceId,
      edition: readingPositions.edition,
      updatedAt: readingPositions.updatedAt,
    })
    .from(readingPositions)
    .where(and(eq(readingPositions.userId, readerId), eq(readingPositions.bookId, bookId)));
  return row ? { ...row, format: row.format as ReaderFormat | null } : null;
}

export async function saveReadingPosition(db: Queryable, readerId: string, bookId: number, position: PositionToSave, at: Date): Promise<void> {
  const values = {
    page: position.page,
    percentage: position.percentage ?? null,
    locator: position.locator ?? null,
    format: position.format ?? null,
    device: position.device ?? null,
    deviceId: position.deviceId ?? null,
    edition: position.edition ?? null,
    updatedAt: at,
  };
  await db
    .insert(readingPositions)
    .values({ userId: readerId, bookId, ...values })
    .onConflictDoUpdate({ target: [readingPositions.userId, readingPositions.bookId], set: values });
}

export async function deleteReadingPositionsOf(tx: Queryable, readerId: string): Promise<void> {
  await tx.delete(readingPositions).where(eq(readingPositions.userId, readerId));
}

/**
 * Before a book's file becomes a new edition (docs/product.md#editions): its readers' places saved
 * by page alone (a PDF's or a reading view's, before the browser kept how far through) get that
 * percentage from the old file's page count, so that the new edition opens at the same point.
 */
export async function keepPlacesAsPercentages(tx: Queryable, bookId: number, oldPageCount: number | null): Promise<void> {
  if (!oldPageCount) return;
  await tx
    .update(readingPositions)
    .set({ percentage: oldPageCount <= 1 ? 0 : sql`least(greatest((${readingPositions.page} - 1)::real / ${oldPageCount - 1}, 0), 1)` })
    // Places from before formats were told apart were a PDF's page or a reading view's too.
    .where(and(eq(readingPositions.bookId, bookId), isNull(readingPositions.percentage), or(isNull(readingPositions.format), inArray(readingPositions.format, ["pdf", "word"]))));
}
