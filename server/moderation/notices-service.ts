import type { InterfaceLanguage } from "../../shared/languages.ts";
import type { Notice, NoticeGroup, NoticeReceipt } from "../../shared/notices.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import { findLiveBook } from "../books/books-repository.ts";
import { authorDisplayName } from "../books/present-book.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { notFound, reviewNotFound } from "../http/errors.ts";
import { findReportableReview } from "../ratings/reviews-repository.ts";
import { type NoticeOutcomeKind, composeNoticeOutcomeMail, composeNoticeReceivedMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { type NoticeRow, bookTitlesOf, closeNotices, insertNotice, listOpenNotices, reviewedBookTitlesOf } from "./notices-repository.ts";

export interface NoticeMailing {
  mailer: Mailer;
  productName: string;
}

/** The book or the author a notice is about, and the account it concerns: the book's author, or the author. */
async function subjectOf(db: Db, notice: Notice): Promise<{ bookId: number | null; reviewId?: number; accountId: string; name: string }> {
  if (notice.reviewId !== undefined) {
    // A review is reported while it is shown: one removed or deleted is gone already (docs/product.md#reviews).
    const review = await findReportableReview(db, notice.reviewId);
    if (!review) throw reviewNotFound();
    return { bookId: null, reviewId: review.id, accountId: review.userId, name: review.bookTitle };
  }
  if (notice.bookId !== undefined) {
    // A book already hidden or removed can still be reported; a deleted one is gone.
    const book = await findLiveBook(db, notice.bookId);
    if (!book) throw notFound("This book does not exist.");
    return { bookId: book.id, accountId: book.authorId, name: book.title };
  }
  const author = await findOpenAccount(db, notice.authorId!);
  if (!author) throw notFound("This author does not exist.");
  const name = accountName(author);
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
    reviewId: subject.reviewId ?? null,
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
        values: { productName: mailing.productName, name: senderName({ reporterName: notice.name ?? null, reporterEmail: notice.email }), subject: subject.name, reference: String(kept.id) },
      }),
    );
  }
  return { id: kept.id, receivedAt: kept.createdAt.toISOString() };
}

/** The admin's queue (docs/product.md#moderation): open notices grouped by book and by author, the minors category's groups first, then the oldest. */
export async function readNoticeQueue(db: Queryable): Promise<NoticeGroup[]> {
  const groups = new Map<string, NoticeGroup>();
  for (const row of await listOpenNotices(db)) {
    const { notice } = row;
    const accountName = [row.accountFirstName, row.accountLastName].filter(Boolean).join(" ") || row.accountUsername;
    // A notice about a review its writer deleted was settled with it: an open one still has its review.
    const review = notice.reviewId !== null && row.reviewBookId !== null ? { id: notice.reviewId, bookId: row.reviewBookId } : null;
    const key = review ? `review:${review.id}` : notice.bookId === null ? `account:${notice.accountId}` : `book:${notice.bookId}`;
    const group = groups.get(key) ?? {
      subject: review
        ? { kind: "review" as const, reviewId: review.id, bookId: review.bookId, title: row.reviewBookTitle ?? "", text: row.reviewText ?? "", rating: row.reviewRating ?? 0, accountId: notice.accountId, accountName }
        : notice.bookId === null
          ? { kind: "account" as const, accountId: notice.accountId, accountName, suspended: row.accountSuspendedAt !== null }
          : {
              kind: "book" as const,
              bookId: notice.bookId,
              title: row.bookTitle ?? "",
              moderationState: row.bookModerationState,
              deletedAt: row.bookDeletedAt?.toISOString() ?? null,
              accountId: notice.accountId,
              accountName,
            },
      urgent: false,
      oldestAt: notice.createdAt.toISOString(),
      notices: [],
    };
    group.urgent ||= notice.category === "minors";
    group.notices.push({
      id: notice.id,
      category: notice.category,
      source: notice.source,
      explanation: notice.explanation,
      url: notice.url,
      reporterName: notice.reporterName,
      reporterEmail: notice.reporterEmail,
      originalWork: notice.originalWork,
      rightsHolder: notice.rightsHolder,
      sworn: notice.sworn,
      createdAt: notice.createdAt.toISOString(),
    });
    groups.set(key, group);
  }
  // Rows come oldest first, so each group's first notice is its oldest.
  return [...groups.values()].sort((a, b) => Number(b.urgent) - Number(a.urgent) || a.oldestAt.localeCompare(b.oldestAt));
}

/** The admin dismisses one notice with its reasons: nothing is restricted, and its sender is told why. */
export async function dismissNotice(db: Db, id: number, facts: string, at: Date): Promise<NoticeRow> {
  const [dismissed] = await closeNotices(db, [id], { status: "dismissed", facts, decisionId: null, at });
  if (!dismissed) throw notFound("This notice does not exist or is already settled.");
  return dismissed;
}

export interface OutcomeMailing extends NoticeMailing {
  /** Where a sender who disagrees writes; without CONTACT_EMAIL, the contact page. */
  contactEmail: string;
}

/**
 * What each notice is about, as its sender's mails name it: the book, the book a reported review is
 * of, or the author. Read while the subject is there: a review its writer deletes is read before it goes.
 */
export async function noticeSubjects(db: Queryable, settled: NoticeRow[]): Promise<Map<number, string>> {
  const [titles, reviewedTitles] = await Promise.all([
    bookTitlesOf(
      db,
      settled.flatMap((notice) => (notice.bookId === null ? [] : [notice.bookId])),
    ),
    reviewedBookTitlesOf(
      db,
      settled.flatMap((notice) => (notice.reviewId === null ? [] : [notice.reviewId])),
    ),
  ]);
  // A suspension settles many notices about one account: its name is read once.
  const accountIds = new Set(settled.flatMap((notice) => (notice.bookId === null && notice.reviewId === null ? [notice.accountId] : [])));
  const accountNames = new Map(
    await Promise.all([...accountIds].map(async (id) => [id, await findOpenAccount(db, id).then((account) => (account ? accountName(account) : ""))] as const)),
  );
  return new Map(
    settled.map((notice) => [
      notice.id,
      (notice.reviewId !== null ? reviewedTitles.get(notice.reviewId) : notice.bookId !== null ? titles.get(notice.bookId) : accountNames.get(notice.accountId)) ?? "",
    ]),
  );
}

/**
 * Tells each sender with an address what came of their notice, in the language they used; a failed
 * mail loses nothing. `subjects` are given when the subject is gone by now (noticeSubjects).
 */
export async function mailNoticeOutcomes(db: Queryable, mailing: OutcomeMailing, settled: NoticeRow[], outcome: NoticeOutcomeKind, subjects?: Map<number, string>): Promise<void> {
  const names = subjects ?? (await noticeSubjects(db, settled));
  await Promise.all(
    settled.map(async (notice) => {
      if (!notice.reporterEmail) return;
      await mailing.mailer.send(
        composeNoticeOutcomeMail({
          to: notice.reporterEmail,
          language: notice.language,
          outcome,
          values: {
            productName: mailing.productName,
            name: senderName({ reporterName: notice.reporterName, reporterEmail: notice.reporterEmail }),
            subject: names.get(notice.id) ?? "",
            reference: String(notice.id),
            facts: notice.closingFacts ?? "",
            contactEmail: mailing.contactEmail,
          },
        }),
      );
    }),
  );
}

/** How mails greet a notice's sender: the name they gave, else the first part of their address. */
export const senderName = (notice: { reporterName: string | null; reporterEmail: string }): string => notice.reporterName ?? notice.reporterEmail.split("@")[0]!;

/** How a notice names an account: its public display name, else its username. */
const accountName = (account: User): string =>
  authorDisplayName({ authorFirstName: account.firstName, authorLastName: account.lastName, authorEmail: account.email }) ?? account.username;
