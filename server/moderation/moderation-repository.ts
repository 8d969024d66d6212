import { and, desc, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type ModerationState, REVIEW_EXCERPT_LENGTH } from "../../shared/moderation.ts";
import type { Queryable } from "../db/client.ts";
import { books, moderationDecisions, reviews, users } from "../db/schema.ts";

export type ModerationDecisionRow = typeof moderationDecisions.$inferSelect;

export async function insertDecision(tx: Queryable, values: typeof moderationDecisions.$inferInsert): Promise<ModerationDecisionRow> {
  const [decision] = await tx.insert(moderationDecisions).values(values).returning();
  return decision!;
}

/** Sets a live book's moderation state and the decision behind it (both null when restored). */
export async function setBookModeration(tx: Queryable, bookId: number, state: ModerationState | null, decisionId: number | null): Promise<void> {
  await tx.update(books).set({ moderationState: state, moderationDecisionId: decisionId }).where(eq(books.id, bookId));
}

/** Hides every live book of the account that moderation does not restrict yet, under the suspension's decision. */
export async function hideUnrestrictedBooksOf(tx: Queryable, accountId: string, decisionId: number): Promise<void> {
  await tx
    .update(books)
    .set({ moderationState: "hidden", moderationDecisionId: decisionId })
    .where(and(eq(books.authorId, accountId), isNull(books.deletedAt), isNull(books.moderationState)));
}

/** Shows again the books a suspension hid; books restricted by decisions of their own stay as they are. */
export async function restoreBooksHiddenBy(tx: Queryable, decisionId: number): Promise<void> {
  await tx.update(books).set({ moderationState: null, moderationDecisionId: null }).where(eq(books.moderationDecisionId, decisionId));
}

export async function setAccountSuspended(tx: Queryable, accountId: string, suspendedAt: Date | null): Promise<void> {
  await tx.update(users).set({ suspendedAt }).where(eq(users.id, accountId));
}

/** The account's latest suspension decision: the one its reinstatement undoes. */
export async function findLatestSuspension(tx: Queryable, accountId: string): Promise<ModerationDecisionRow | undefined> {
  const [decision] = await tx
    .select()
    .from(moderationDecisions)
    .where(and(eq(moderationDecisions.accountId, accountId), eq(moderationDecisions.action, "suspend")))
    .orderBy(desc(moderationDecisions.createdAt), desc(moderationDecisions.id))
    .limit(1);
  return decision;
}

export async function findDecision(db: Queryable, id: number): Promise<ModerationDecisionRow | undefined> {
  const [decision] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id));
  return decision;
}

/** Whether the decision is the one restricting its book, or its review, now; read with both joined. */
const inEffect = sql<boolean>`coalesce(${books.moderationDecisionId} = ${moderationDecisions.id} or ${reviews.moderationDecisionId} = ${moderationDecisions.id}, false)`;

/** The statements of reasons an account received, newest first, with the title of the book each is about (a review's, its book's) and whether it still restricts it. */
export async function listDecisionsAbout(db: Queryable, accountId: string): Promise<Array<ModerationDecisionRow & { bookTitle: string | null; inEffect: boolean }>> {
  return db
    .select({ ...getTableColumns(moderationDecisions), bookTitle: books.title, inEffect })
    .from(moderationDecisions)
    .leftJoin(books, eq(books.id, moderationDecisions.bookId))
    .leftJoin(reviews, eq(reviews.id, moderationDecisions.reviewId))
    .where(eq(moderationDecisions.accountId, accountId))
    .orderBy(desc(moderationDecisions.createdAt), desc(moderationDecisions.id));
}

const decider = alias(users, "decider");

/**
 * A page of every decision, newest first, for the admin's log: the book's title, a review's first
 * words, the names of the account decided about and of the admin who decided (none for an automated
 * check), and whether it is still in force. One row more than the page is read, to tell whether
 * another page follows.
 */
export async function listDecisionLog(db: Queryable, { offset, limit }: { offset: number; limit: number }) {
  return db
    .select({
      ...getTableColumns(moderationDecisions),
      bookTitle: books.title,
      // A little more than the log shows, so the service can tell a cut text.
      reviewStart: sql<string | null>`left(${reviews.comment}, ${REVIEW_EXCERPT_LENGTH + 1})`,
      inEffect,
      accountFirstName: users.firstName,
      accountLastName: users.lastName,
      accountUsername: users.username,
      deciderUsername: decider.username,
    })
    .from(moderationDecisions)
    .innerJoin(users, eq(users.id, moderationDecisions.accountId))
    .leftJoin(decider, eq(decider.id, moderationDecisions.decidedBy))
    .leftJoin(books, eq(books.id, moderationDecisions.bookId))
    .leftJoin(reviews, eq(reviews.id, moderationDecisions.reviewId))
    .orderBy(desc(moderationDecisions.createdAt), desc(moderationDecisions.id))
    .offset(offset)
    .limit(limit);
}
