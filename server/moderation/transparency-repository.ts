import { type AnyColumn, and, gte, isNotNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { moderationDecisions, notices } from "../db/schema.ts";

/** A month as "YYYY-MM" in UTC, computed by the database so that it groups and labels alike. */
const monthOf = (column: AnyColumn) => sql<string>`to_char(date_trunc('month', ${column} at time zone 'UTC'), 'YYYY-MM')`;

/** Notices received since a date, counted by month, category and status. */
export async function countNoticesByMonth(db: Queryable, since: Date) {
  const month = monthOf(notices.createdAt);
  return db
    .select({ month, category: notices.category, status: notices.status, count: sql<number>`count(*)::int` })
    .from(notices)
    .where(gte(notices.createdAt, since))
    .groupBy(month, notices.category, notices.status);
}

/** Moderation decisions taken since a date, counted by month and action. */
export async function countDecisionsByMonth(db: Queryable, since: Date) {
  const month = monthOf(moderationDecisions.createdAt);
  return db
    .select({ month, action: moderationDecisions.action, count: sql<number>`count(*)::int` })
    .from(moderationDecisions)
    .where(gte(moderationDecisions.createdAt, since))
    .groupBy(month, moderationDecisions.action);
}

/**
 * The median seconds from a notice to its decision, by the month it was settled in, since a date. A
 * notice about a review its writer deleted was decided by nobody, so it is not counted (docs/decisions/0111).
 */
export async function medianHoursToSettleByMonth(db: Queryable, since: Date) {
  const month = monthOf(notices.closedAt);
  return db
    .select({
      month,
      seconds: sql<number>`(percentile_cont(0.5) within group (order by extract(epoch from ${notices.closedAt} - ${notices.createdAt})))::float8`,
    })
    .from(notices)
    .where(and(isNotNull(notices.closedAt), gte(notices.closedAt, since), ne(notices.status, "writer-deleted")))
    .groupBy(month);
}
