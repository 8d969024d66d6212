import { bookPath } from "../../shared/book-urls.ts";
import { E_READER_MAIL_MAX_BYTES, type SentToEReader } from "../../shared/e-reader-mail.ts";
import { type BookFormat, EPUB_MIME_TYPE, formatsOf } from "../books/book-files.ts";
import type { BookWithAuthor } from "../books/books-repository.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { eReaderEmailMissing, eReaderFileTooLarge, eReaderMailFailed, notFound } from "../http/errors.ts";
import { composeBookToEReaderMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { downloadFileName } from "./download-name.ts";
import { recordDownload } from "./downloads-service.ts";
import type { CountedFileDeps } from "./send-counted-file.ts";

export interface SendToEReaderDeps extends CountedFileDeps {
  mailer: Mailer;
  origin: string;
  productName: string;
}

/**
 * The file an e-reader takes best: the EPUB when the book has one (an uploaded EPUB, or the one Plume
 * made from a Word book), else its own file; a Kindle takes PDF, DOC and DOCX as well (docs/product.md#send-to-e-reader).
 */
export function fileForEReader(book: Parameters<typeof formatsOf>[0]): BookFormat {
  const formats = formatsOf(book);
  return formats.find((format) => format.mimeType === EPUB_MIME_TYPE) ?? formats[0]!;
}

/**
 * Mails a book the reader may take to their e-reader's address, then counts it as a download
 * (docs/product.md#send-to-e-reader). The mail goes first and the count only once it went: a mail
 * that fails leaves nothing written, and a reader is never counted for a book that never reached
 * them (docs/decisions/0100 argues the order). The file is streamed from the store into the mail,
 * never read whole into memory.
 */
export async function sendBookToEReader(deps: SendToEReaderDeps, reader: Express.User, book: BookWithAuthor, countingAddress: string | undefined): Promise<SentToEReader> {
  if (!reader.eReaderEmail) throw eReaderEmailMissing();
  const file = fileForEReader(book);
  if (file.size > E_READER_MAIL_MAX_BYTES) throw eReaderFileTooLarge(Math.floor(E_READER_MAIL_MAX_BYTES / (1024 * 1024)));

  if (!(await deps.store.has(file.kind, file.name))) throw notFound("The file of this book is missing.");

  const fileName = downloadFileName(book.title, file.extension);
  const message = composeBookToEReaderMail({
    to: reader.eReaderEmail,
    language: reader.language,
    values: { productName: deps.productName, title: book.title },
    author: authorDisplayName(book),
    link: `${deps.origin}${bookPath(book)}`,
  });
  const sent = await deps.store.withLocalFile(file.kind, file.name, (path) =>
    deps.mailer.send({ ...message, attachments: [{ filename: fileName, path, contentType: file.mimeType }] }),
  );
  if (!sent) throw eReaderMailFailed();

  const { paymentsOwed } = await recordDownload(deps.db, {
    bookId: book.id,
    readerId: reader.id,
    ipAddress: countingAddress,
    at: new Date(),
    channel: "send",
    countedPerIpPerBookPerDay: deps.countedPerIpPerBookPerDay,
    hashAddress: deps.hashAddress,
    rewards: deps.rewards,
  });
  if (paymentsOwed > 0) deps.onPaymentsOwed();
  return { sentTo: reader.eReaderEmail, fileName, mimeType: file.mimeType };
}
