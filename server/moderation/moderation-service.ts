import {
  type AccountModerationInput,
  type BookModerationInput,
  MODERATION_CONFLICT,
  MODERATION_LOG_PAGE_SIZE,
  type ModerationDecision,
  type ModerationBasis,
  type ModerationGround,
  type ModerationLogPage,
  type ModerationState,
  REPEAT_INFRINGER_STRIKES,
  REVIEW_EXCERPT_LENGTH,
  moderationGrounds,
} from "../../shared/moderation.ts";
import { findOpenAccount, lockOpenAccount } from "../accounts/users-repository.ts";
import { deleteAccountSessions } from "../accounts/sessions-repository.ts";
import { lockBookEvenDeleted } from "../books/books-repository.ts";
import type { Book } from "../db/schema.ts";
import { copyrightStrikesOf } from "./appeals-repository.ts";
import type { Db, Queryable } from "../db/client.ts";
import { composeDecisionMail } from "../mail/mail-texts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { type HttpError, conflict, forbidden, notFound } from "../http/errors.ts";
import {
  type ModerationDecisionRow,
  findDecision,
  findLatestSuspension,
  hideUnrestrictedBooksOf,
  insertDecision,
  listDecisionLog,
  restoreBooksHiddenBy,
  setAccountSuspended,
  setBookModeration,
} from "./moderation-repository.ts";
import { type NoticeRow, closeOpenNotices } from "./notices-repository.ts";
import { cancelUnsentPaymentsOfBook, reinstatePaymentsCancelledBy } from "../rewards/payment-holds-repository.ts";

/** A removal's state follows its ground: the terms' 410, or the law's 451 (docs/product.md#moderation). */
export const removalStateFor = (ground: ModerationGround): ModerationState => (moderationGrounds[ground] === "law" ? "removed-legal" : "removed-terms");

function nextBookState(input: BookModerationInput, current: ModerationState | null, currentDecision: ModerationDecisionRow | undefined): ModerationState | null {
  switch (input.action) {
    case "hide":
      if (current !== null) throw conflict(MODERATION_CONFLICT, "This book is already hidden or removed.");
      return "hidden";
    case "remove":
      if (current === "removed-terms" || current === "removed-legal") throw conflict(MODERATION_CONFLICT, "This book is already removed.");
      return removalStateFor(input.ground);
    case "restore":
      if (current === null) throw conflict(MODERATION_CONFLICT, "This book is not hidden nor removed.");
      if (currentDecision?.action === "suspend") throw conflict(MODERATION_CONFLICT, "This book is hidden by its author's suspension: reinstate the account instead.");
      return null;
  }
}

/**
 * The admin hides, removes or restores a book (docs/product.md#moderation). The statement of reasons
 * and the book's new state are written together; the catalog's kept answers move with the state
 * (migrations/0022_moderation.sql). A book its author deleted can still be removed, and only that:
 * the deletion neither settles its notices nor frees what it owes (docs/decisions/0112).
 */
export async function decideAboutBook(db: Db, admin: Express.User, bookId: number, input: BookModerationInput, at: Date): Promise<DecisionAbout> {
  return db.transaction(async (tx) => {
    const book = await lockBookEvenDeleted(tx, bookId);
    if (!book) throw notFound("This book does not exist.");
    if (book.deletedAt !== null && input.action !== "remove") {
      throw conflict("book_deleted", "Its author deleted this book: it is in no list to hide it from or bring it back to, and can only be removed.");
    }
    return applyBookDecision(tx, book, input, admin.id, at);
  });
}

/**
 * Writes a decision about a locked book: its state, the statement of reasons, the notices it settles,
 * and for a copyright removal the repeat-infringer policy's suspension (docs/product.md#repeat-infringers).
 */
export async function applyBookDecision(tx: Queryable, book: Book, input: BookModerationInput, decidedBy: string | null, at: Date): Promise<DecisionAbout> {
  const currentDecision = book.moderationDecisionId === null ? undefined : await findDecision(tx, book.moderationDecisionId);
  const state = nextBookState(input, book.moderationState, currentDecision);
  const decision = await insertDecision(tx, {
    action: input.action,
    bookId: book.id,
    accountId: book.authorId,
    ground: "ground" in input ? input.ground : null,
    basis: input.basis,
    facts: input.facts,
    decidedBy,
    createdAt: at,
  });
  await setBookModeration(tx, book.id, state, state === null ? null : decision.id);
  // A removal cancels what the book still owes and has not sent, under this statement of reasons; a
  // hide only holds it. A restore releases what is held and, when it lifts a removal (found wrong on
  // review or appeal), what that removal cancelled (docs/decisions/0090). What is already signed is in
  // flight and is paid or fails on its own.
  const cancelledAmount = input.action === "remove" ? await cancelUnsentPaymentsOfBook(tx, book.id, decision.id) : "0.00";
  const reinstatedAmount = input.action === "restore" && currentDecision?.action === "remove" ? await reinstatePaymentsCancelledBy(tx, currentDecision.id) : "0.00";
  // A removal upholds the book's open notices, a restore after review rejects them; hiding leaves them open.
  const outcome = input.action === "remove" ? "actioned" : input.action === "restore" ? "dismissed" : undefined;
  const settledNotices = outcome ? await closeOpenNotices(tx, { bookId: book.id }, { status: outcome, facts: input.facts, decisionId: decision.id, at }) : [];
  const consequence = input.action === "remove" && input.ground === "law-copyright" ? await suspendRepeatInfringer(tx, book.authorId, at) : undefined;
  return { ...decision, bookTitle: book.title, settledNotices, cancelledAmount, reinstatedAmount, ...(consequence ? { consequence } : {}) };
}

/** Three copyright strikes in effect suspend the account (docs/product.md#repeat-infringers), unless it already is. */
async function suspendRepeatInfringer(tx: Queryable, accountId: string, at: Date): Promise<DecisionAbout | undefined> {
  const strikes = await copyrightStrikesOf(tx, accountId);
  if (strikes.length < REPEAT_INFRINGER_STRIKES) return undefined;
  const account = await lockOpenAccount(tx, accountId);
  if (!account || account.suspendedAt !== null) return undefined;
  const titles = strikes.map((strike) => `“${strike.title}”`).join(", ");
  return suspendAccount(tx, account.id, {
    ground: "law-copyright",
    basis: "automated",
    facts: `${strikes.length} books of this account were removed for copyright infringement: ${titles}. Plume's repeat-infringer policy suspends an account with three such removals in effect.`,
    decidedBy: null,
    at,
  });
}

/**
 * The admin suspends or reinstates an account (docs/product.md#moderation). A suspension hides every
 * book of the account that nothing else restricts and signs it out everywhere; reinstating shows
 * those books again, and only those.
 */
export async function decideAboutAccount(db: Db, admin: Express.User, accountId: string, input: AccountModerationInput, at: Date): Promise<DecisionAbout> {
  return db.transaction(async (tx) => {
    const account = await lockOpenAccount(tx, accountId);
    if (!account) throw notFound("This account does not exist.");
    if (input.action === "suspend") {
      if (account.id === admin.id) throw conflict(MODERATION_CONFLICT, "The admin's own account cannot be suspended.");
      if (account.suspendedAt !== null) throw conflict(MODERATION_CONFLICT, "This account is already suspended.");
      return suspendAccount(tx, accountId, { ground: input.ground, basis: input.basis, facts: input.facts, decidedBy: admin.id, at });
    }
    if (account.suspendedAt === null) throw conflict(MODERATION_CONFLICT, "This account is not suspended.");
    const suspension = await findLatestSuspension(tx, accountId);
    const decision = await insertDecision(tx, { action: "reinstate", accountId, ground: null, basis: input.basis, facts: input.facts, decidedBy: admin.id, createdAt: at });
    await setAccountSuspended(tx, accountId, null);
    if (suspension) await restoreBooksHiddenBy(tx, suspension.id);
    return { ...decision, bookTitle: null, settledNotices: [], cancelledAmount: "0.00" };
  });
}

/**
 * Suspends a locked, open account: every book nothing else restricts is hidden under the suspension,
 * its sessions end, and the notices about it are upheld.
 */
async function suspendAccount(
  tx: Queryable,
  accountId: string,
  { ground, basis, facts, decidedBy, at }: { ground: ModerationGround; basis: ModerationBasis; facts: string; decidedBy: string | null; at: Date },
): Promise<DecisionAbout> {
  const decision = await insertDecision(tx, { action: "suspend", accountId, ground, basis, facts, decidedBy, createdAt: at });
  await setAccountSuspended(tx, accountId, at);
  await hideUnrestrictedBooksOf(tx, accountId, decision.id);
  await deleteAccountSessions(tx, accountId, undefined);
  const settledNotices = await closeOpenNotices(tx, { accountId }, { status: "actioned", facts, decisionId: decision.id, at });
  return { ...decision, bookTitle: null, settledNotices, cancelledAmount: "0.00" };
}

/**
 * A decision with the title of the book it is about (a review's, its book's; null for an account's),
 * the notices it settled, and the PME its removal cancelled ("0.00" for any other decision).
 */
export type DecisionAbout = ModerationDecisionRow & {
  bookTitle: string | null;
  settledNotices: NoticeRow[];
  cancelledAmount: string;
  /** The PME a restore sent back to the queue, which the removal it lifted had cancelled. */
  reinstatedAmount?: string;
  /** A decision this one led to: the repeat-infringer policy's suspension after a third copyright removal. */
  consequence?: DecisionAbout;
};

export function presentDecision(decision: ModerationDecisionRow & { bookTitle: string | null }): ModerationDecision {
  return {
    id: decision.id,
    action: decision.action,
    bookId: decision.bookId,
    bookTitle: decision.bookTitle,
    reviewId: decision.reviewId,
    accountId: decision.accountId,
    ground: decision.ground,
    basis: decision.basis,
    facts: decision.facts,
    createdAt: decision.createdAt.toISOString(),
  };
}

/** A review's first words, whole words only, marked as cut when there is more. */
function excerpt(start: string): string {
  const flat = start.replace(/\s+/g, " ").trim();
  if (start.length <= REVIEW_EXCERPT_LENGTH) return flat;
  const cut = flat.slice(0, REVIEW_EXCERPT_LENGTH);
  const lastSpace = cut.lastIndexOf(" ");
  return `${lastSpace > 0 ? cut.slice(0, lastSpace) : cut}…`;
}

/** The admin's log of decisions (docs/product.md#moderation): who decided what about whom, and when, newest first. */
export async function readDecisionLog(db: Queryable, page: number): Promise<ModerationLogPage> {
  const rows = await listDecisionLog(db, { offset: (page - 1) * MODERATION_LOG_PAGE_SIZE, limit: MODERATION_LOG_PAGE_SIZE + 1 });
  return {
    decisions: rows.slice(0, MODERATION_LOG_PAGE_SIZE).map((row) => ({
      ...presentDecision(row),
      accountName: [row.accountFirstName, row.accountLastName].filter(Boolean).join(" ") || row.accountUsername,
      decidedBy: row.deciderUsername,
      reviewExcerpt: row.reviewStart === null ? null : excerpt(row.reviewStart),
      inEffect: row.inEffect,
    })),
    page,
    hasMore: rows.length > MODERATION_LOG_PAGE_SIZE,
  };
}

/** What a suspended account's sign-in is answered with: the suspension's stated facts (docs/product.md#moderation). */
export async function suspendedAccountError(db: Queryable, accountId: string): Promise<HttpError> {
  const suspension = await findLatestSuspension(db, accountId);
  const since = suspension ? ` on ${suspension.createdAt.toISOString().slice(0, 10)}` : "";
  const facts = suspension ? ` ${suspension.facts}` : "";
  return forbidden(`This account was suspended${since}.${facts}`, "account_suspended");
}

export interface DecisionMailing {
  mailer: Mailer;
  origin: string;
  productName: string;
  /** Where a decision is contested: CONTACT_EMAIL, else the contact page's address. */
  contactEmail: string;
}

/**
 * Mails the statement of reasons to the author, in their language, once the decision has committed.
 * An account without an e-mail address reads it on its dashboard only; a mail that fails is logged by
 * the mailer and never undoes the decision (docs/decisions/0033).
 */
export async function mailDecision(db: Queryable, mailing: DecisionMailing, decision: DecisionAbout): Promise<void> {
  const account = await findOpenAccount(db, decision.accountId);
  if (!account?.email) return;
  await mailing.mailer.send(
    composeDecisionMail({
      to: account.email,
      language: account.language,
      values: { productName: mailing.productName, name: account.firstName || account.username, contactEmail: mailing.contactEmail },
      decision,
      link: `${mailing.origin}/dashboard`,
    }),
  );
}
