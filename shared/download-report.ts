import { z } from "zod";

/**
 * Why a logged download did not count (docs/product.md#counting-downloads), in the order the rule tries
 * them, then "unrecorded": downloads logged before reasons were kept whose reason could not be told.
 */
export const NOT_COUNTED_REASONS = ["unpublished", "moderation-review", "own-book", "repeat-reader", "no-address", "address-cap", "unrecorded"] as const;
export type NotCountedReasonShown = (typeof NOT_COUNTED_REASONS)[number];

export const DOWNLOAD_REPORT_DEFAULT_MONTHS = 12;
export const DOWNLOAD_REPORT_MAX_MONTHS = 24;

/** GET /api/authors/:id/download-report?months=: 1 to 24 months, 12 when absent. */
export const downloadReportQuerySchema = z.object({
  months: z
    .string()
    .regex(/^\d{1,2}$/, "validation.monthsInvalid")
    .transform(Number)
    .pipe(z.number().min(1, "validation.monthsInvalid").max(DOWNLOAD_REPORT_MAX_MONTHS, "validation.monthsInvalid"))
    .default(DOWNLOAD_REPORT_DEFAULT_MONTHS),
});
export type DownloadReportQuery = z.infer<typeof downloadReportQuerySchema>;

/** Logged downloads split into counted and not counted by reason: `counted` plus every reason is `logged`. */
export interface DownloadTally {
  logged: number;
  counted: number;
  notCounted: Record<NotCountedReasonShown, number>;
}

export interface DownloadReportBook {
  bookId: number;
  title: string;
  /** Deleted books stay: their downloads were logged and may have counted. */
  deleted: boolean;
  /** Only the months with a logged download, oldest first. */
  months: Array<DownloadTally & { month: string }>;
  /** The book's months added up. */
  total: DownloadTally;
}

/** The author's logged downloads per book and month (UTC), every one of them counted or given a reason. */
export interface DownloadReport {
  /** The "YYYY-MM" months covered, oldest first; the last is the current month. */
  months: string[];
  /** The books with a logged download in those months, by title. */
  books: DownloadReportBook[];
}

export function emptyTally(): DownloadTally {
  return { logged: 0, counted: 0, notCounted: Object.fromEntries(NOT_COUNTED_REASONS.map((reason) => [reason, 0])) as Record<NotCountedReasonShown, number> };
}
