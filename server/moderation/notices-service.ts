import type { InterfaceLanguage } from "../../shared/languages.ts";
import type { Notice, NoticeReceipt } from "../../shared/notices.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import { findLiveBook } from "../books/books-repository.ts";
import { authorDisplayName } from "../books/present-book.ts";
import type { Db } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { composeNoticeReceivedMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { insertNotice } from "./notices-repository.ts";

export interface NoticeMailing {
  mailer: Mailer;
  productName: string;
}

/** The book or the author a notice is about, and the account it concerns: the book's author, or the author. */
async function subjectOf(db: Db, notice: Notice): Promise<{ bookId: number | null; accountId: string; name: string }> {
  if (notice.bookId !== undefined) {
    // A book already hidden or removed can still be reported; a deleted one is gone.
    const book = await findLiveBook(db, notice.bookId);
    if (!book) throw notFound("This book does not exist.");
    return { bookId: book.id, accountId: book.authorId, name: book.title };
  }
  const author = await findOpenAccount(db, notice.authorId!);
  if (!author) throw notFound("This author does not exist.");
  const name = authorDisplayName({ authorFirstName: author.firstName, authorLastName: author.lastName, authorEmail: author.email }) ?? author.username;
  return { bookId: null, accountId: author.id, name };
}

/**
 * Records a notice (docs/product.md#moderation; EU Digital Services Act Art. 16) and acknowledges it
 * by mail to the address given, in the language the reporter used, with its reference. The mail goes
 * once the notice is kept, and its failure never loses the notice.
 */
export async function receiveNotice(
  db: Db,
  mailing: NoticeMailing,
  { notice, reporter, language, at }: { notice: Notice; reporter: Express.User | undefined; language: InterfaceLanguage; at: Date },
): Promise<NoticeReceipt> {
  const subject = await subjectOf(db, notice);
  const kept = await insertNotice(db, {
    category: notice.category,
    bookId: subject.bookId,
    accountId: subject.accountId,
    url: notice.url,
    explanation: notice.explanation,
    reporterName: notice.name ?? null,
    reporterEmail: notice.email ?? null,
    reporterAccountId: reporter?.id ?? null,
    language,
    originalWork: notice.category === "copyright" ? (notice.originalWork ?? null) : null,
    rightsHolder: notice.category === "copyright" ? (notice.rightsHolder ?? null) : null,
    sworn: notice.category === "copyright" && notice.sworn === true,
    createdAt: at,
  });
  if (notice.email) {
    await mailing.mailer.send(
      composeNoticeReceivedMail({
        to: notice.email,
        language,
        values: { productName: mailing.productName, name: notice.name ?? notice.email.split("@")[0]!, subject: subject.name, reference: String(kept.id) },
      }),
    );
  }
  return { id: kept.id, receivedAt: kept.createdAt.toISOString() };
}
