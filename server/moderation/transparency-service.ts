import { moderationActions } from "../../shared/moderation.ts";
import { noticeCategories } from "../../shared/notices.ts";
import { TRANSPARENCY_MONTHS, type TransparencyMonth, type TransparencyReport, noticeOutcomes, zeroCounts } from "../../shared/transparency.ts";
import type { Queryable } from "../db/client.ts";
import { countDecisionsByMonth, countNoticesByMonth, medianHoursToSettleByMonth } from "./transparency-repository.ts";

/** The first instant of the month `back` months before the one `at` is in, in UTC. */
const monthStart = (at: Date, back: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1));
const monthKey = (start: Date) => start.toISOString().slice(0, 7);

/**
 * The public transparency report (docs/product.md#moderation; EU Digital Services Act Art. 15): for
 * each of the last twelve months, oldest first, the notices received by category and outcome, the
 * decisions by action, and the median time from a notice to its settling. The database adds them up;
 * a month without any has zeros, so the table has no gaps.
 */
export async function readTransparencyReport(db: Queryable, at: Date): Promise<TransparencyReport> {
  const since = monthStart(at, TRANSPARENCY_MONTHS - 1);
  const months = new Map<string, TransparencyMonth>();
  for (let back = TRANSPARENCY_MONTHS - 1; back >= 0; back--) {
    const month = monthKey(monthStart(at, back));
    months.set(month, {
      month,
      noticesByCategory: zeroCounts(noticeCategories),
      noticesByOutcome: zeroCounts(noticeOutcomes),
      decisionsByAction: zeroCounts(moderationActions),
      medianSecondsToDecision: null,
    });
  }
  const [noticeCounts, decisionCounts, medians] = await Promise.all([
    countNoticesByMonth(db, since),
    countDecisionsByMonth(db, since),
    medianHoursToSettleByMonth(db, since),
  ]);
  for (const { month, category, status, count } of noticeCounts) {
    const entry = months.get(month);
    if (!entry) continue;
    entry.noticesByCategory[category] += count;
    entry.noticesByOutcome[status] += count;
  }
  for (const { month, action, count } of decisionCounts) {
    const entry = months.get(month);
    if (entry) entry.decisionsByAction[action] += count;
  }
  for (const { month, seconds } of medians) {
    const entry = months.get(month);
    if (entry) entry.medianSecondsToDecision = Math.round(seconds);
  }
  return { generatedAt: at.toISOString(), months: [...months.values()] };
}
