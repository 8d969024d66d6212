import type { Db } from "../db/client.ts";
import type { FileStore, StoredKind } from "../storage/file-store.ts";
import { listLiveBookFiles } from "./books-repository.ts";
import { storedNamesOf } from "./cover-images.ts";

/**
 * Removes the stored files no live book points at: a crash between keeping an upload's files and
 * committing its row leaves them, as does one between a delete's commit and its file removal.
 * Like FileStore.purgeTemp, it runs at start, before this server takes any upload; the uploads
 * folder belongs to one server process. Returns how many files it removed.
 */
export async function removeOrphanFiles(db: Db, store: FileStore): Promise<number> {
  const live = await listLiveBookFiles(db);
  const referenced: Record<StoredKind, Set<string>> = {
    books: new Set(live.map((book) => book.filePath)),
    covers: new Set(live.flatMap((book) => storedNamesOf(book.coverImageUrl))),
  };
  let removed = 0;
  for (const kind of ["books", "covers"] as const) {
    for (const name of store.storedNames(kind).filter((stored) => !referenced[kind].has(stored))) {
      await store.remove(kind, name);
      removed += 1;
    }
  }
  return removed;
}
