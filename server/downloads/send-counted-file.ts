import type { Request, Response } from "express";
import type { DownloadFormat } from "../../shared/books.ts";
import type { Book } from "../db/schema.ts";
import { type BookFormat, formatsOf } from "../books/book-files.ts";
import type { RewardSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { findOlderEdition } from "../books/editions-service.ts";
import { extensionOf } from "../books/file-types.ts";
import { forbidTransforms } from "../http/send-file.ts";
import type { FileStore } from "../storage/file-store.ts";
import type { AddressHasher } from "./address-hashes.ts";
import { downloadFileName } from "./download-name.ts";
import { type DownloadChannel, recordDownload } from "./downloads-service.ts";

export interface CountedFileDeps {
  db: Db;
  store: FileStore;
  countedPerIpPerBookPerDay: number;
  hashAddress: AddressHasher;
  rewards: RewardSettings;
  /** Called when a download made payments owed, so they go out without waiting a round. */
  onPaymentsOwed: () => void;
}

/** A book's file as an attachment: a name people can read, its real type, never kept by a cache. */
function setBookFileHeaders(res: Response, title: string, format: BookFormat, size: number) {
  res.attachment(downloadFileName(title, format.extension));
  res.setHeader("Content-Type", format.mimeType);
  res.setHeader("Content-Length", String(size));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "private, no-store");
}

/**
 * The file asked for: a format of the current edition (its own file when none is named), or an older
 * edition's own file (docs/product.md#editions); one the book does not have is a 404.
 */
async function fileToTake(db: Db, book: Book, format: DownloadFormat | undefined, edition: number | undefined): Promise<BookFormat> {
  if (edition !== undefined && edition !== book.edition) {
    const older = await findOlderEdition(db, book, edition);
    const own: BookFormat = { file: "file", kind: "books", name: older.filePath, size: older.fileSize, mimeType: older.mimeType, extension: extensionOf(older.filePath) };
    if (format !== undefined && format !== own.extension) throw notFound(`Edition ${edition} of this book has no ${format} file.`);
    return own;
  }
  const formats = formatsOf(book);
  const taken = format === undefined ? formats[0]! : formats.find((each) => each.extension === format);
  if (!taken) throw notFound(`This book has no ${format} file.`);
  return taken;
}

/**
 * Sends a visible book's file to the signed-in reader and counts it by the rule of
 * docs/product.md#counting-downloads, whichever way it was taken (the download button, an e-reader
 * app) and whichever of its files (`format`, its own when none: docs/product.md#epub): a reader counts
 * once per book, not per file. A format the book does not have is a 404. The file is opened first, since a download that cannot be served must not count; a HEAD
 * (some e-reader apps ask for the headers first) takes nothing, so it counts nothing.
 *
 * With DOWNLOADS_ACCEL_REDIRECT, once the download is decided and counted, nginx in front sends the
 * bytes (sendfile, no copy through this process): the answer names the file in X-Accel-Redirect and
 * has no body; nginx keeps its Content-Type, Content-Disposition and Cache-Control (docs/decisions/0078).
 */
export async function sendCountedBookFile(
  deps: CountedFileDeps,
  { reader, req, res }: { reader: Express.User; req: Request; res: Response },
  listed: Book,
  channel: DownloadChannel,
  format?: DownloadFormat,
  edition?: number,
): Promise<void> {
  const taken = await fileToTake(deps.db, listed, format, edition);
  const file = await deps.store.open(taken.kind, taken.name).catch(() => {
    throw notFound("The file of this book is missing.");
  });
  try {
    if (req.method === "HEAD") {
      setBookFileHeaders(res, listed.title, taken, file.size);
      res.end();
      return;
    }
    const { book, paymentsOwed } = await recordDownload(deps.db, {
      bookId: listed.id,
      readerId: reader.id,
      ipAddress: req.countingAddress,
      at: new Date(),
      channel,
      countedPerIpPerBookPerDay: deps.countedPerIpPerBookPerDay,
      hashAddress: deps.hashAddress,
      rewards: deps.rewards,
      ...(edition !== undefined && edition !== listed.edition ? { edition } : {}),
    });
    if (paymentsOwed > 0) deps.onPaymentsOwed();
    setBookFileHeaders(res, book.title, taken, file.size);
    if (file.accelRedirect === undefined) {
      await file.send(res);
      return;
    }
    forbidTransforms(res);
    res.setHeader("X-Accel-Redirect", file.accelRedirect);
    res.setHeader("Content-Length", "0");
    res.end();
  } finally {
    await file.close();
  }
}
