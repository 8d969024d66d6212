import type { Db } from "../db/client.ts";
import { type FileStore, type StoredKind, STORED_KINDS } from "../storage/file-store.ts";
import { listLiveBookFiles } from "./books-repository.ts";
import { derivedNamesOf } from "./book-files.ts";
import { listLiveOlderEditionFiles } from "./editions-repository.ts";
import { storedNamesOf } from "./cover-images.ts";

/**
 * Removes the stored files no live book points at: a crash between keeping an upload's files and
 * committing its row leaves them, as does one between a delete's commit and its file removal, or a
 * reading view made while its book was being deleted. A Word book's derived files are referenced by its
 * file's name (book-files.ts). Only files last written before `olderThan` go: a younger one may be an
 * upload another process (sharing the files or the bucket) is committing right now (docs/decisions/0042). The live rows are read after the
 * listing, so a file whose row commits in between is seen as referenced. Returns how many files it removed.
 */
export async function removeOrphanFiles(db: Db, store: FileStore, olderThan: Date): Promise<number> {
  const stored = { books: await store.list("books"), covers: await store.list("covers"), views: await store.list("views") };
  const live = await listLiveBookFiles(db);
  // A live book's older editions stay for its readers (docs/product.md#editions); nothing is derived from them.
  const olderEditions = await listLiveOlderEditionFiles(db);
  const referenced: Record<StoredKind, Set<string>> = {
    books: new Set([...live.map((book) => book.filePath), ...olderEditions]),
    covers: new Set(live.flatMap((book) => storedNamesOf(book.coverImageUrl))),
    views: new Set(live.flatMap((book) => Object.values(derivedNamesOf(book.filePath)))),
  };
  let removed = 0;
  for (const kind of STORED_KINDS) {
    for (const { name } of stored[kind].filter((entry) => entry.modifiedAt < olderThan && !referenced[kind].has(entry.name))) {
      await store.remove(kind, name);
      removed += 1;
    }
  }
  return removed;
}
