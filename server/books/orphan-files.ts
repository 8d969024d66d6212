import type { Db } from "../db/client.ts";
import type { FileStore, StoredKind } from "../storage/file-store.ts";
import { listLiveBookFiles } from "./books-repository.ts";
import { storedNamesOf } from "./cover-images.ts";

/**
 * Removes the stored files no live book points at: a crash between keeping an upload's files and
 * committing its row leaves them, as does one between a delete's commit and its file removal. Only
 * files last written before `olderThan` go: a younger one may be an upload another process (sharing the
 * files or the bucket) is committing right now (docs/decisions/0042). The live rows are read after the
 * listing, so a file whose row commits in between is seen as referenced. Returns how many files it removed.
 */
export async function removeOrphanFiles(db: Db, store: FileStore, olderThan: Date): Promise<number> {
  const stored = { books: await store.list("books"), covers: await store.list("covers") };
  const live = await listLiveBookFiles(db);
  const referenced: Record<StoredKind, Set<string>> = {
    books: new Set(live.map((book) => book.filePath)),
    covers: new Set(live.flatMap((book) => storedNamesOf(book.coverImageUrl))),
  };
  let removed = 0;
  for (const kind of ["books", "covers"] as const) {
    for (const { name } of stored[kind].filter((entry) => entry.modifiedAt < olderThan && !referenced[kind].has(entry.name))) {
      await store.remove(kind, name);
      removed += 1;
    }
  }
  return removed;
}
