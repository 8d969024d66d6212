import { inIdPages } from "../db/id-pages.ts";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { BookFileType } from "../../shared/books.ts";
import type { Db } from "../db/client.ts";
import type { FileStore } from "../storage/file-store.ts";
import { fingerprintFile } from "./book-fingerprints.ts";
import { listBooksToFingerprint, lockCopyChecks, setFileSha256 } from "./copies-repository.ts";
import { fileCopyNotice, fingerprintAndCompare } from "./copies.ts";
import { extensionOf } from "./file-types.ts";

const FILL_BATCH = 50;

/** What became of one book: its file gone, or looked at (fingerprinted or too little text to be), with the older book it copies if any. */
export type FingerprintOutcome =
  | { kind: "missing" }
  | { kind: "done"; wordCount: number | null; fingerprinted: boolean; copyOf: { bookId: number; similarity: number } | null };

export interface FingerprintFillTally {
  seen: number;
  fingerprinted: number;
  copies: number;
  missing: number;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

/**
 * Hashes and fingerprints every live book uploaded before copies were checked (docs/decisions/0091),
 * oldest first, each in a cage and committed on its own: an interrupted run keeps what it did, and the
 * next goes on from there. A book whose text matches an older book of another account is not hidden:
 * it has been listed for a while, so Plume files its own notice and the admin decides.
 * The server never waits for this: it starts and checks new uploads whether or not it has run.
 */
export async function fillFingerprints(
  { db, store, origin }: { db: Db; store: FileStore; origin: string },
  report: (bookId: number, title: string, outcome: FingerprintOutcome) => void,
): Promise<FingerprintFillTally> {
  const tally: FingerprintFillTally = { seen: 0, fingerprinted: 0, copies: 0, missing: 0 };
  for await (const batch of inIdPages((page) => listBooksToFingerprint(db, page), FILL_BATCH)) {
    for (const book of batch) {
      tally.seen += 1;
      if (!(await store.has("books", book.filePath))) {
        tally.missing += 1;
        report(book.id, book.title, { kind: "missing" });
        continue;
      }
      const kind = extensionOf(book.filePath) as BookFileType;
      const read = await store.withLocalFile("books", book.filePath, async (path) => ({
        sha256: book.fileSha256 ?? (await sha256Of(path)),
        fingerprint: book.fingerprinted === null ? await fingerprintFile(path, kind) : undefined,
      }));
      const copy = await db.transaction(async (tx) => {
        await lockCopyChecks(tx);
        if (book.fileSha256 === null) await setFileSha256(tx, book.id, read.sha256);
        if (read.fingerprint === undefined) return null;
        const found = await fingerprintAndCompare(tx, book, read.fingerprint);
        if (found) await fileCopyNotice(tx, { book, copy: found, origin, at: new Date(), hidden: false });
        return found;
      });
      if (read.fingerprint?.signature) tally.fingerprinted += 1;
      if (copy) tally.copies += 1;
      report(book.id, book.title, {
        kind: "done",
        wordCount: read.fingerprint?.wordCount ?? null,
        fingerprinted: Boolean(read.fingerprint?.signature),
        copyOf: copy ? { bookId: copy.original.bookId, similarity: copy.similarity } : null,
      });
    }
  }
  return tally;
}
