import { and, count, desc, eq, isNotNull, isNull, notInArray } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { eReaderKeyDigests, eReaderKeys } from "../db/schema.ts";

/** The e_reader_keys table (docs/product.md#opds): only hashes of keys, never a key. */

export type EReaderKeyRow = typeof eReaderKeys.$inferSelect;

export async function listKeysOf(db: Queryable, userId: string): Promise<EReaderKeyRow[]> {
  return db
    .select()
    .from(eReaderKeys)
    .where(eq(eReaderKeys.userId, userId))
    .orderBy(desc(eReaderKeys.createdAt), desc(eReaderKeys.id));
}

export async function countActiveKeysOf(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(eReaderKeys)
    .where(and(eq(eReaderKeys.userId, userId), isNull(eReaderKeys.revokedAt)));
  return row!.count;
}

export async function insertKey(db: Queryable, values: { userId: string; name: string; keyHash: string; createdAt: Date }): Promise<EReaderKeyRow> {
  const [row] = await db.insert(eReaderKeys).values(values).returning();
  return row!;
}

/** Keeps the digests KOReader's sync may send for a key (server/opds/e-reader-key-secret.ts `koreaderDigestsOf`). */
export async function insertKeyDigests(db: Queryable, keyId: string, digests: string[]): Promise<void> {
  await db.insert(eReaderKeyDigests).values(digests.map((md5) => ({ md5, keyId })));
}

/** The key in use that KOReader's digest stands for; a revoked key is never found. */
export async function findActiveKeyByDigest(db: Queryable, md5: string): Promise<EReaderKeyRow | undefined> {
  const [row] = await db
    .select({ key: eReaderKeys })
    .from(eReaderKeyDigests)
    .innerJoin(eReaderKeys, eq(eReaderKeys.id, eReaderKeyDigests.keyId))
    .where(and(eq(eReaderKeyDigests.md5, md5), isNull(eReaderKeys.revokedAt)));
  return row?.key;
}

export async function findKey(db: Queryable, id: string): Promise<EReaderKeyRow | undefined> {
  const [row] = await db.select().from(eReaderKeys).where(eq(eReaderKeys.id, id));
  return row;
}

/** The key in use with this hash; a revoked key is never found. */
export async function findActiveKeyByHash(db: Queryable, keyHash: string): Promise<EReaderKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(eReaderKeys)
    .where(and(eq(eReaderKeys.keyHash, keyHash), isNull(eReaderKeys.revokedAt)));
  return row;
}

export async function revokeKey(db: Queryable, id: string, at: Date): Promise<void> {
  await db
    .update(eReaderKeys)
    .set({ revokedAt: at })
    .where(and(eq(eReaderKeys.id, id), isNull(eReaderKeys.revokedAt)));
}

/** Forgets the owner's revoked keys but the `kept` most recently revoked, so the list cannot grow without end. */
export async function deleteOldRevokedKeys(db: Queryable, userId: string, kept: number): Promise<void> {
  const revokedOfUser = and(eq(eReaderKeys.userId, userId), isNotNull(eReaderKeys.revokedAt));
  const newest = db.select({ id: eReaderKeys.id }).from(eReaderKeys).where(revokedOfUser).orderBy(desc(eReaderKeys.revokedAt), desc(eReaderKeys.id)).limit(kept);
  await db.delete(eReaderKeys).where(and(revokedOfUser, notInArray(eReaderKeys.id, newest)));
}

export async function recordKeyUse(db: Queryable, id: string, at: Date): Promise<void> {
  await db.update(eReaderKeys).set({ lastUsedAt: at }).where(eq(eReaderKeys.id, id));
}

export async function deleteKeysOf(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(eReaderKeys).where(eq(eReaderKeys.userId, userId));
}
