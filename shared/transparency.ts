import type { ModerationAction } from "./moderation.ts";
import type { NoticeCategory } from "./notices.ts";

/**
 * What became of a notice: still open, led to a restriction, dismissed, or settled because the
 * review it reported is gone, deleted by its writer before a decision (docs/decisions/0111).
 */
export const noticeOutcomes = ["open", "actioned", "dismissed", "writer-deleted"] as const;
export type NoticeOutcome = (typeof noticeOutcomes)[number];

/** How many months the transparency report covers: the current one and the eleven before it. */
export const TRANSPARENCY_MONTHS = 12;

/**
 * One month of the public transparency report (docs/product.md#moderation): the notices received that
 * month by category and by what became of them, the decisions taken that month by action, and the
 * median time from a notice to its settling, over the notices settled that month.
 */
export interface TransparencyMonth {
  /** "2026-03": the month, in UTC. */
  month: string;
  noticesByCategory: Record<NoticeCategory, number>;
  noticesByOutcome: Record<NoticeOutcome, number>;
  decisionsByAction: Record<ModerationAction, number>;
  /** Seconds from a notice to its settling, the median over the notices settled that month, whole; null when none was. */
  medianSecondsToDecision: number | null;
}

/** GET /api/transparency: the last twelve months, oldest first; a month without notices has zeros. */
export interface TransparencyReport {
  generatedAt: string;
  months: TransparencyMonth[];
}

export const zeroCounts = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;


