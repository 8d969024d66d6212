import {
  APPEAL_CLOSED,
  APPEAL_WINDOW_DAYS,
  APPEALABLE_ACTIONS,
  type Appeal,
  type AppealForReview,
  type AppealOutcome,
  type AppealSummary,
  type DecisionForAuthor,
  appealKindFor,
} from "../../shared/appeals.ts";
import { isReviewAction } from "../../shared/moderation.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import { lockLiveBook } from "../books/books-repository.ts";
import type { Db, Queryable } from "../db/client.ts";
import { conflict, notFound, validationFailed } from "../http/errors.ts";
import {
  type ContestedSubject,
  composeAppealOutcomeMail,
  composeAppealReceivedMail,
  composeCounterNoticeForwardedMail,
  composeCounterNoticeOutcomeMail,
} from "../mail/mail-texts.ts";
import { lockReviewWithBook } from "../ratings/reviews-repository.ts";
import { applyReviewDecision } from "../ratings/reviews-service.ts";
import {
  type AppealRow,
  appealsAgainst,
  closeAppeal,
  copyrightNoticesAnswered,
  insertAppeal,
  listOpenAppeals,
  lockOpenAppeal,
} from "./appeals-repository.ts";
import { type ModerationDecisionRow, findDecision, listDecisionsAbout } from "./moderation-repository.ts";
import { mailNoticeOutcomes, senderName } from "./notices-service.ts";
import type { NoticeRow } from "./notices-repository.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { type DecisionAbout, type DecisionMailing, applyBookDecision, presentDecision } from "./moderation-service.ts";

const DAY_MS = 86_400_000;

/** Whether a decision is about a book or about a review: a review's decision names its book too. */
const subjectOf = (decision: ModerationDecisionRow): ContestedSubject => (isReviewAction(decision.action) ? "review" : "book");

/** What a contested decision restricts, locked: its title, the decision restricting it now, and how a granted appeal lifts that. */
interface Restricted {
  title: string;
  restrictedBy: number | null;
  restore: (facts: string, decidedBy: string, at: Date) => Promise<DecisionAbout>;
}

/**
 * The book or the review a decision is about, locked for the appeal's transaction (docs/product.md#appeals);
 * none when it is gone (a deleted book, a review its writer deleted). A granted appeal lifts the
 * restriction through the admin's own restore, so notices, the catalog, the average and payouts
 * follow the same rules.
 */
async function lockRestricted(tx: Queryable, decision: ModerationDecisionRow): Promise<Restricted | undefined> {
  const lifted = { basis: "appeal", action: "restore" } as const;
  if (subjectOf(decision) === "review") {
    const found = decision.reviewId === null ? undefined : await lockReviewWithBook(tx, decision.reviewId);
    return (
      found && {
        title: found.book.title,
        restrictedBy: found.review.moderationDecisionId,
        restore: (facts, decidedBy, at) => applyReviewDecision(tx, found, { ...lifted, facts }, decidedBy, at),
      }
    );
  }
  const book = await lockLiveBook(tx, decision.bookId!);
  return book && { title: book.title, restrictedBy: book.moderationDecisionId, restore: (facts, decidedBy, at) => applyBookDecision(tx, book, { ...lifted, facts }, decidedBy, at) };
}

/** The last moment a decision can be contested (docs/product.md#appeals). */
const appealDeadline = (decision: { createdAt: Date }) => new Date(decision.createdAt.getTime() + APPEAL_WINDOW_DAYS * DAY_MS);

export const presentAppeal = (appeal: AppealRow): AppealSummary => ({
  id: appeal.id,
  kind: appeal.kind,
  status: appeal.status,
  createdAt: appeal.createdAt.toISOString(),
  decidedAt: appeal.decidedAt?.toISOString() ?? null,
  outcomeFacts: appeal.outcomeFacts,
});

/**
 * The statements of reasons about an account, newest first (docs/product.md#moderation), each with its
 * appeal. A decision can be contested while it is the one restricting its book, within the window.
 */
export async function readDecisionsForAuthor(db: Queryable, accountId: string, now: Date): Promise<DecisionForAuthor[]> {
  const decisions = await listDecisionsAbout(db, accountId);
  const appeals = await appealsAgainst(
    db,
    decisions.map((decision) => decision.id),
  );
  return decisions.map((decision) => {
    const appeal = appeals.get(decision.id);
    const until = appealDeadline(decision);
    const open = !appeal && decision.inEffect && (APPEALABLE_ACTIONS as readonly string[]).includes(decision.action) && now < until;
    return {
      ...presentDecision(decision),
      appeal: appeal ? presentAppeal(appeal) : null,
      contest: open ? { kind: appealKindFor(decision.ground), until: until.toISOString() } : null,
    };
  });
}

/**
 * The author contests a decision about their book, or the writer one about their review
 * (docs/product.md#appeals): once, within six months, while the decision still restricts it; a
 * copyright ground by a counter-notice, any other by an appeal. Another account's decision is
 * answered as unknown.
 */
export async function fileAppeal(db: Db, author: Express.User, decisionId: number, input: Appeal, at: Date): Promise<{ appeal: AppealRow; decision: ModerationDecisionRow; bookTitle: string }> {
  return db.transaction(async (tx) => {
    const decision = await findDecision(tx, decisionId);
    if (!decision || decision.accountId !== author.id || decision.bookId === null) throw notFound("This decision does not exist.");
    if (!(APPEALABLE_ACTIONS as readonly string[]).includes(decision.action)) {
      throw conflict(APPEAL_CLOSED, "Only the hiding or removal of a book, or the removal of a review, can be contested here.");
    }
    const restricted = await lockRestricted(tx, decision);
    if (!restricted || restricted.restrictedBy !== decision.id) throw conflict(APPEAL_CLOSED, `This decision no longer restricts the ${subjectOf(decision)}.`);
    if (at >= appealDeadline(decision)) throw conflict(APPEAL_CLOSED, `A decision can be contested for ${APPEAL_WINDOW_DAYS} days; this one can no longer be.`);
    const kind = appealKindFor(decision.ground);
    if (input.kind !== kind) {
      throw validationFailed(
        kind === "counter-notice" ? "A copyright decision is contested by a counter-notice." : "This decision is contested by an appeal.",
        { kind: "validation.appealKindInvalid" },
      );
    }
    const counter = input.kind === "counter-notice" ? input : null;
    const appeal = await insertAppeal(tx, {
      decisionId,
      accountId: author.id,
      kind,
      statement: input.statement,
      legalName: counter?.legalName ?? null,
      postalAddress: counter?.postalAddress ?? null,
      phone: counter?.phone ?? null,
      createdAt: at,
    });
    if (!appeal) throw conflict(APPEAL_CLOSED, "This decision has already been contested.");
    return { appeal, decision, bookTitle: restricted.title };
  });
}

/**
 * Once an appeal is kept: the author's acknowledgement and, for a counter-notice, a copy to each sender
 * of a copyright notice it answers, in their language (DMCA §512(g)(2)(B)). A failed mail loses nothing.
 */
export async function mailAppealReceived(
  db: Queryable,
  mailing: DecisionMailing,
  { appeal, decision, bookTitle }: { appeal: AppealRow; decision: ModerationDecisionRow; bookTitle: string },
): Promise<void> {
  const author = await findOpenAccount(db, appeal.accountId);
  if (author?.email) {
    await mailing.mailer.send(
      composeAppealReceivedMail({
        to: author.email,
        language: author.language,
        kind: appeal.kind,
        values: { productName: mailing.productName, name: author.firstName || author.username, bookTitle, reference: String(appeal.id) },
      }),
    );
  }
  if (appeal.kind !== "counter-notice") return;
  await mailSenders(mailing, await copyrightNoticesAnswered(db, decision), (greeting) =>
    composeCounterNoticeForwardedMail({
      ...greeting,
      about: subjectOf(decision),
      values: {
        ...greeting.values,
        subject: bookTitle,
        legalName: appeal.legalName ?? "",
        postalAddress: appeal.postalAddress ?? "",
        phone: appeal.phone ?? "",
        statement: appeal.statement,
      },
    }),
  );
}

/** The admin's queue of open appeals, oldest first (docs/product.md#appeals). */
export async function readOpenAppeals(db: Queryable): Promise<AppealForReview[]> {
  return (await listOpenAppeals(db)).map(({ appeal, decision, bookTitle, reviewText, accountFirstName, accountLastName, accountUsername }) => ({
    ...presentAppeal(appeal),
    statement: appeal.statement,
    legalName: appeal.legalName,
    postalAddress: appeal.postalAddress,
    phone: appeal.phone,
    decision: { id: decision.id, action: decision.action, ground: decision.ground, facts: decision.facts, createdAt: decision.createdAt.toISOString() },
    book: decision.bookId === null ? null : { id: decision.bookId, title: bookTitle ?? "" },
    review: decision.reviewId === null ? null : { id: decision.reviewId, text: reviewText ?? "" },
    account: { id: appeal.accountId, name: [accountFirstName, accountLastName].filter(Boolean).join(" ") || accountUsername },
  }));
}

export interface AppealDecided {
  appeal: AppealRow;
  /** The book's title, or the title of the book the review is of. */
  bookTitle: string;
  about: ContestedSubject;
  /** The restore a granted appeal made; none when the book or review was already free of the decision, or is gone. */
  restore: DecisionAbout | null;
  /** The copyright notices a granted counter-notice answered, for their senders to be told. */
  answeredNotices: NoticeRow[];
}

/**
 * The admin grants or rejects an open appeal (docs/product.md#appeals). Granting restores the book or
 * the review under a decision whose basis is the appeal, in the same transaction; rejecting leaves the
 * decision in force. Both keep the reasons the author is told.
 */
export async function decideAppeal(db: Db, admin: Express.User, appealId: number, input: AppealOutcome, at: Date): Promise<AppealDecided> {
  return db.transaction(async (tx) => {
    const appeal = await lockOpenAppeal(tx, appealId);
    if (!appeal) throw notFound("This appeal does not exist or is already decided.");
    const contested = (await findDecision(tx, appeal.decisionId))!;
    const about = subjectOf(contested);
    const restricted = await lockRestricted(tx, contested);
    let restore: DecisionAbout | null = null;
    let answeredNotices: NoticeRow[] = [];
    if (input.outcome === "granted" && restricted?.restrictedBy === contested.id) {
      if (appeal.kind === "counter-notice") answeredNotices = await copyrightNoticesAnswered(tx, contested);
      restore = await restricted.restore(input.facts, admin.id, at);
    } else if (input.outcome === "granted" && restricted && restricted.restrictedBy !== null) {
      throw conflict(APPEAL_CLOSED, `A later decision now restricts this ${about}: decide about the ${about} itself.`);
    }
    const closed = await closeAppeal(tx, appeal.id, { status: input.outcome, facts: input.facts, decidedBy: admin.id, outcomeDecisionId: restore?.id ?? null, at });
    return { appeal: closed, bookTitle: restricted?.title ?? "", about, restore, answeredNotices };
  });
}

/**
 * Once an appeal is decided: the author is told the outcome (a granted appeal's mail stands for the
 * restore's statement), and the senders of the notices a granted counter-notice answered are told the
 * book is back.
 */
export async function mailAppealDecided(db: Queryable, mailing: DecisionMailing, decided: AppealDecided): Promise<void> {
  const { appeal, bookTitle, about } = decided;
  const author = await findOpenAccount(db, appeal.accountId);
  if (author?.email) {
    await mailing.mailer.send(
      composeAppealOutcomeMail({
        to: author.email,
        language: author.language,
        outcome: appeal.status === "granted" ? "granted" : "rejected",
        about,
        values: { productName: mailing.productName, name: author.firstName || author.username, bookTitle, reference: String(appeal.id), facts: appeal.outcomeFacts ?? "" },
        link: `${mailing.origin}/dashboard`,
      }),
    );
  }
  if (decided.restore) await mailNoticeOutcomes(db, mailing, decided.restore.settledNotices, "dismissed");
  // A notice the restore settled was just told so; the others had led to the removal now undone.
  const toldAlready = new Set(decided.restore?.settledNotices.map((notice) => notice.id));
  await mailSenders(
    mailing,
    decided.answeredNotices.filter((notice) => !toldAlready.has(notice.id)),
    (greeting) => composeCounterNoticeOutcomeMail({ ...greeting, about, values: { ...greeting.values, subject: bookTitle, facts: appeal.outcomeFacts ?? "" } }),
  );
}

interface SenderGreeting {
  to: string;
  language: string;
  values: { productName: string; name: string; reference: string; contactEmail: string };
}

/** Mails each sender with an address among these notices, in their language, greeted as they signed. */
async function mailSenders(mailing: DecisionMailing, notices: NoticeRow[], compose: (greeting: SenderGreeting) => MailMessage): Promise<void> {
  for (const notice of notices) {
    if (!notice.reporterEmail) continue;
    await mailing.mailer.send(
      compose({
        to: notice.reporterEmail,
        language: notice.language,
        values: {
          productName: mailing.productName,
          name: senderName({ reporterName: notice.reporterName, reporterEmail: notice.reporterEmail }),
          reference: String(notice.id),
          contactEmail: mailing.contactEmail,
        },
      }),
    );
  }
}
