import { and, asc, eq, getTableColumns, inArray, or } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { appeals, books, moderationDecisions, notices, reviews, users } from "../db/schema.ts";
import { isReviewAction } from "../../shared/moderation.ts";
import type { ModerationDecisionRow } from "./moderation-repository.ts";

export type AppealRow = typeof appeals.$inferSelect;

/** Keeps an appeal; null when the decision already has one (the unique index answers, so two at once cannot both land). */
export async function insertAppeal(tx: Queryable, values: typeof appeals.$inferInsert): Promise<AppealRow | null> {
  const [appeal] = await tx.insert(appeals).values(values).onConflictDoNothing({ target: appeals.decisionId }).returning();
  return appeal ?? null;
}

export async function lockOpenAppeal(tx: Queryable, id: number): Promise<AppealRow | undefined> {
  const [appeal] = await tx
    .select()
    .from(appeals)
    .where(and(eq(appeals.id, id), eq(appeals.status, "open")))
    .for("update");
  return appeal;
}

export async function closeAppeal(
  tx: Queryable,
  id: number,
  outcome: { status: "granted" | "rejected"; facts: string; decidedBy: string; outcomeDecisionId: number | null; at: Date },
): Promise<AppealRow> {
  const [appeal] = await tx
    .update(appeals)
    .set({ status: outcome.status, outcomeFacts: outcome.facts, decidedBy: outcome.decidedBy, outcomeDecisionId: outcome.outcomeDecisionId, decidedAt: outcome.at })
    .where(eq(appeals.id, id))
    .returning();
  return appeal!;
}

/** The appeals against the given decisions, by the decision they contest. */
export async function appealsAgainst(db: Queryable, decisionIds: number[]): Promise<Map<number, AppealRow>> {
  if (decisionIds.length === 0) return new Map();
  const rows = await db.select().from(appeals).where(inArray(appeals.decisionId, decisionIds));
  return new Map(rows.map((row) => [row.decisionId, row]));
}

/** The open appeals, oldest first, with the decision contested, the book's title, a review's words and the account's names. */
export async function listOpenAppeals(db: Queryable) {
  return db
    .select({
      appeal: appeals,
      decision: getTableColumns(moderationDecisions),
      bookTitle: books.title,
      reviewText: reviews.comment,
      accountFirstName: users.firstName,
      accountLastName: users.lastName,
      accountUsername: users.username,
    })
    .from(appeals)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
    .innerJoin(users, eq(users.id, appeals.accountId))
    .leftJoin(books, eq(books.id, moderationDecisions.bookId))
    .leftJoin(reviews, eq(reviews.id, moderationDecisions.reviewId))
    .where(eq(appeals.status, "open"))
    .orderBy(asc(appeals.createdAt), asc(appeals.id));
}

/**
 * The copyright notices a counter-notice answers (docs/product.md#appeals): those about the book, or
 * the review, of the contested decision that are still open, or that the decision upheld.
 */
export async function copyrightNoticesAnswered(db: Queryable, decision: ModerationDecisionRow) {
  // A review's notices name the review only; a review deleted since has none left to answer.
  const [column, id] = isReviewAction(decision.action) ? [notices.reviewId, decision.reviewId] : [notices.bookId, decision.bookId];
  if (id === null) return [];
  const subject = eq(column, id);
  return db
    .select()
    .from(notices)
    .where(and(subject, eq(notices.category, "copyright"), or(eq(notices.status, "open"), eq(notices.decisionId, decision.id))))
    .orderBy(asc(notices.id));
}

/**
 * The account's copyright strikes in effect (docs/product.md#repeat-infringers): its books removed on
 * the copyright ground and not restored since, each under the removal's own decision.
 */
export async function copyrightStrikesOf(tx: Queryable, accountId: string): Promise<Array<{ bookId: number; title: string }>> {
  return tx
    .select({ bookId: books.id, title: books.title })
    .from(books)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, books.moderationDecisionId))
    .where(
      and(
        // A removed book its author deleted since is still under its removal: deleting never erases a strike.
        eq(books.authorId, accountId),
        eq(moderationDecisions.action, "remove"),
        eq(moderationDecisions.ground, "law-copyright"),
        eq(moderationDecisions.bookId, books.id),
      ),
    )
    .orderBy(asc(moderationDecisions.createdAt), asc(books.id));
}
