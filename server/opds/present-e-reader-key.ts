import type { EReaderKey } from "../../shared/e-reader-keys.ts";
import type { EReaderKeyRow } from "./e-reader-keys-repository.ts";

/** A key as its owner's list shows it; the hash never leaves the server. */
export function presentEReaderKey(row: EReaderKeyRow): EReaderKey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
