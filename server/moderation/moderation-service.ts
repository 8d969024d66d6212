import {
  type AccountModerationInput,
  type BookModerationInput,
  MODERATION_CONFLICT,
  type ModerationDecision,
  type ModerationGround,
  type ModerationState,
  moderationGrounds,
} from "../../shared/moderation.ts";
import { findOpenAccount, lockOpenAccount } from "../accounts/users-repository.ts";
import { deleteAccountSessions } from "../accounts/sessions-repository.ts";
import { lockLiveBook } from "../books/books-repository.ts";
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
  listDecisionsAbout,
  restoreBooksHiddenBy,
  setAccountSuspended,
  setBookModeration,
} from "./moderation-repository.ts";
import { type NoticeRow, closeOpenNotices } from "./notices-repository.ts";
import { cancelUnsentPaymentsOfBook } from "../rewards/payment-holds-repository.ts";

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
 * (migrations/0022_moderation.sql).
 */
export async function decideAboutBook(db: Db, admin: Express.User, bookId: number, input: BookModerationInput, at: Date): Promise<DecisionAbout> {
  return db.transaction(async (tx) => {
    const book = await lockLiveBook(tx, bookId);
    if (!book) throw notFound("This book does not exist.");
    const currentDecision = book.moderationDecisionId === null ? undefined : await findDecision(tx, book.moderationDecisionId);
    const state = nextBookState(input, book.moderationState, currentDecision);
    const decision = await insertDecision(tx, {
      action: input.action,
      bookId,
      accountId: book.authorId,
      ground: "ground" in input ? input.ground : null,
      basis: input.basis,
      facts: input.facts,
      decidedBy: admin.id,
      createdAt: at,
    });
    await setBookModeration(tx, bookId, state, state === null ? null : decision.id);
    // A removal cancels what the book still owes and has not sent, under this statement of reasons; a
    // hide only holds it, and a restore releases what is held, never what a removal cancelled
    // (docs/decisions/0090). What is already signed is in flight and is paid or fails on its own.
    const cancelledAmount = input.action === "remove" ? await cancelUnsentPaymentsOfBook(tx, bookId, decision.id) : "0.00";
    // A removal upholds the book's open notices, a restore after review rejects them; hiding leaves them open.
    const outcome = input.action === "remove" ? "actioned" : input.action === "restore" ? "dismissed" : undefined;
    const settledNotices = outcome ? await closeOpenNotices(tx, { bookId }, { status: outcome, facts: input.facts, decisionId: decision.id, at }) : [];
    return { ...decision, bookTitle: book.title, settledNotices, cancelledAmount };
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
    const record = (ground: ModerationGround | null) =>
      insertDecision(tx, { action: input.action, accountId, ground, basis: input.basis, facts: input.facts, decidedBy: admin.id, createdAt: at });
    if (input.action === "suspend") {
      if (account.id === admin.id) throw conflict(MODERATION_CONFLICT, "The admin's own account cannot be suspended.");
      if (account.suspendedAt !== null) throw conflict(MODERATION_CONFLICT, "This account is already suspended.");
      const decision = await record(input.ground);
      await setAccountSuspended(tx, accountId, at);
      await hideUnrestrictedBooksOf(tx, accountId, decision.id);
      await deleteAccountSessions(tx, accountId, undefined);
      const settledNotices = await closeOpenNotices(tx, { accountId }, { status: "actioned", facts: input.facts, decisionId: decision.id, at });
      return { ...decision, bookTitle: null, settledNotices, cancelledAmount: "0.00" };
    }
    if (account.suspendedAt === null) throw conflict(MODERATION_CONFLICT, "This account is not suspended.");
    const suspension = await findLatestSuspension(tx, accountId);
    const decision = await record(null);
    await setAccountSuspended(tx, accountId, null);
    if (suspension) await restoreBooksHiddenBy(tx, suspension.id);
    return { ...decision, bookTitle: null, settledNotices: [], cancelledAmount: "0.00" };
  });
}

/**
 * A decision with the title of the book it is about (null for an account's), the notices it settled,
 * and the PME its removal cancelled ("0.00" for any other decision).
 */
export type DecisionAbout = ModerationDecisionRow & { bookTitle: string | null; settledNotices: NoticeRow[]; cancelledAmount: string };

export function presentDecision(decision: ModerationDecisionRow & { bookTitle: string | null }): ModerationDecision {
  return {
    id: decision.id,
    action: decision.action,
    bookId: decision.bookId,
    bookTitle: decision.bookTitle,
    accountId: decision.accountId,
    ground: decision.ground,
    basis: decision.basis,
    facts: decision.facts,
    createdAt: decision.createdAt.toISOString(),
  };
}

/** The statements of reasons about an account, newest first: what its author reads on the dashboard. */
export async function readDecisionsAbout(db: Queryable, accountId: string): Promise<ModerationDecision[]> {
  return (await listDecisionsAbout(db, accountId)).map(presentDecision);
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
