import type { RequestHandler } from "express";
import { COVER_MAX_BYTES, STORAGE_FULL, STORAGE_QUOTA_EXCEEDED, type StorageUsage } from "../../shared/books.ts";
import type { StorageLimits } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import { signedInCallerOf } from "../http/access.ts";
import { HttpError } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { sumLiveFileSizes } from "./books-repository.ts";
import type { UploadField } from "./upload-parser.ts";

/*
 * Room for uploads (docs/decisions/0055): what one account keeps (its live books' files), what all
 * accounts keep together (optional), and the free space the data folder keeps. Both refusals are 413:
 * the request is larger than the server is willing (the quota) or able (its disk) to take; and a 413
 * is answered without reading the rest of the body (server/http/error-handler.ts).
 */

const MB = 1024 * 1024;
const megabytes = (bytes: number) => (bytes / MB).toFixed(1);

/** Only a book file counts against the quota, so the refusal always names the form's `file`. */
const storageQuotaExceeded = (usedBytes: number, limitBytes: number) =>
  new HttpError(
    413,
    STORAGE_QUOTA_EXCEEDED,
    `This upload does not fit in the account's storage: it keeps ${megabytes(usedBytes)} MB of its ${megabytes(limitBytes)} MB. Deleting a book frees its space.`,
    { file: "upload.storageQuotaExceeded" },
  );

const storageFull = (field: UploadField) =>
  new HttpError(413, STORAGE_FULL, "The server has no room for this upload at the moment.", { [field]: "upload.storageFull" });

export async function readStorageUsage(db: Queryable, limits: StorageLimits, userId: string): Promise<StorageUsage> {
  return { usedBytes: await sumLiveFileSizes(db, userId), limitBytes: limits.quotaPerAccountBytes };
}

/**
 * Refuses a book file of `bytes` that would take its author past the quota, or all accounts past
 * their ceiling. Race-safe only in the transaction that holds the author's row (lockOpenAccount):
 * two uploads of one account are then judged one after the other, the second seeing the first's row.
 * The ceiling of all accounts is not locked: uploads of different accounts at once may pass it by
 * their own sizes, at most one book file each.
 */
export async function checkBookFits(db: Queryable, limits: StorageLimits, authorId: string, bytes: number): Promise<void> {
  const usedBytes = await sumLiveFileSizes(db, authorId);
  if (usedBytes + bytes > limits.quotaPerAccountBytes) throw storageQuotaExceeded(usedBytes, limits.quotaPerAccountBytes);
  if (limits.totalMaxBytes !== undefined && (await sumLiveFileSizes(db)) + bytes > limits.totalMaxBytes) throw storageFull("file");
}

/**
 * The most a well-formed book form carries besides its book file: a cover and the form's fields and
 * part headers (upload-parser.ts allows 10 fields of 64 KB and 16 parts). A body longer than this
 * plus the room left cannot hold a book file that fits.
 */
const FORM_BESIDES_BOOK_MAX_BYTES = COVER_MAX_BYTES + MB;

const declaredLength = (header: string | undefined) => {
  const length = Number(header);
  return Number.isSafeInteger(length) && length > 0 ? length : 0;
};

interface RoomDeps {
  db: Queryable;
  store: Pick<FileStore, "temp">;
  storageLimits: StorageLimits;
}

/**
 * Before a form's body is streamed to disk: refuses it when its Content-Length already says it cannot
 * fit, or the disk where uploads land would keep less than its free-space floor. `field` is the form's
 * largest file: a book file counts against the quota; a cover (an edit's) only against the disk, since
 * covers are not counted (a book has one at a time, drawn by Plume at bounded sizes).
 */
export function refuseUploadsThatCannotFit({ db, store, storageLimits }: RoomDeps, field: UploadField): RequestHandler {
  return (req, _res, next) => {
    const declared = declaredLength(req.get("content-length"));
    const bookAtLeast = Math.max(0, declared - FORM_BESIDES_BOOK_MAX_BYTES);
    const check = async () => {
      if ((await store.temp.freeBytes()) - declared < storageLimits.freeSpaceMinBytes) throw storageFull(field);
      if (field === "file") await checkBookFits(db, storageLimits, signedInCallerOf(req).id, bookAtLeast);
    };
    check().then(() => next(), next);
  };
}
