/**
 * The reward rules of docs/product.md#rewards as pure functions. The clock is always an argument, so the
 * rules can be tested before and after the promotion cutoff whatever today's date is.
 */

export const MILESTONE_STEP = 20;
export const FIRST_BOOK_BONUS_DOWNLOADS = 2;
export const DEFAULT_PROMO_CUTOFF = new Date("2026-04-01T00:00:00Z");

export type RewardKind = "milestone" | "first-book-bonus";

export interface OwedReward {
  kind: RewardKind;
  /** Unique in the database: no code path can create a second payment for the same key. */
  idempotencyKey: string;
  /** The counted downloads that triggered it (20·k, or 2 for the bonus). */
  downloadThreshold: number;
  /** k for milestone k; absent for the bonus. */
  milestone?: number;
}

export interface BookRewardState {
  bookId: number;
  countedDownloads: number;
  /** The highest k that already has a payment row. */
  paidMilestones: number;
  firstBook: boolean;
  firstBookBonusPaid: boolean;
  /** When the book's second counted download happened, if it has. */
  secondCountedDownloadAt: Date | null;
}

export const milestoneKey = (bookId: number, milestone: number) => `book:${bookId}:milestone:${milestone}`;
export const firstBookBonusKey = (bookId: number) => `book:${bookId}:first-book-bonus`;

/** Milestone k is reached at 20·k counted downloads. */
export function milestonesReached(countedDownloads: number): number {
  return Math.floor(Math.max(0, countedDownloads) / MILESTONE_STEP);
}

/** The promotion pays the bonus only when the second counted download came before the cutoff. */
export function isWithinPromotion(secondCountedDownloadAt: Date | null, promoCutoff: Date): boolean {
  return secondCountedDownloadAt !== null && secondCountedDownloadAt.getTime() < promoCutoff.getTime();
}

export function isFirstBookBonusOwed(state: BookRewardState, promoCutoff: Date): boolean {
  return (
    state.firstBook &&
    !state.firstBookBonusPaid &&
    state.countedDownloads >= FIRST_BOOK_BONUS_DOWNLOADS &&
    isWithinPromotion(state.secondCountedDownloadAt, promoCutoff)
  );
}

/** Every payment this book is owed and does not have yet: unpaid milestones in order, then the bonus. */
export function rewardsOwed(state: BookRewardState, promoCutoff: Date): OwedReward[] {
  const owed: OwedReward[] = [];
  for (let k = state.paidMilestones + 1; k <= milestonesReached(state.countedDownloads); k += 1) {
    owed.push({ kind: "milestone", idempotencyKey: milestoneKey(state.bookId, k), downloadThreshold: k * MILESTONE_STEP, milestone: k });
  }
  if (isFirstBookBonusOwed(state, promoCutoff)) {
    owed.push({ kind: "first-book-bonus", idempotencyKey: firstBookBonusKey(state.bookId), downloadThreshold: FIRST_BOOK_BONUS_DOWNLOADS });
  }
  return owed;
}

/** Downloads still needed for the next milestone (the dashboard's progress). */
export function downloadsToNextMilestone(countedDownloads: number): number {
  return MILESTONE_STEP - (Math.max(0, countedDownloads) % MILESTONE_STEP);
}

export type FirstBookBonusIssue =
  | "not_marked_as_first_book"
  | "bonus_already_paid"
  | "no_first_download_date"
  | "after_cutoff_date"
  | "no_wallet_address";

export interface BonusDiagnosis {
  canReceiveFirstBookBonus: boolean;
  issues: FirstBookBonusIssue[];
}

/**
 * Why a book can or cannot receive the first-book bonus (admin diagnostics). A missing wallet
 * is reported but does not stop the bonus: the payment waits until a wallet is connected.
 */
export function diagnoseFirstBookBonus(
  state: Pick<BookRewardState, "firstBook" | "firstBookBonusPaid"> & {
    firstDownloadDate: Date | null;
    secondCountedDownloadAt: Date | null;
    authorWallet: string | null;
  },
  promoCutoff: Date,
): BonusDiagnosis {
  const issues: FirstBookBonusIssue[] = [];
  if (!state.firstBook) issues.push("not_marked_as_first_book");
  if (state.firstBookBonusPaid) issues.push("bonus_already_paid");
  if (!state.firstDownloadDate) issues.push("no_first_download_date");
  const decisiveDownload = state.secondCountedDownloadAt ?? state.firstDownloadDate;
  if (decisiveDownload && decisiveDownload.getTime() >= promoCutoff.getTime()) issues.push("after_cutoff_date");
  if (!state.authorWallet) issues.push("no_wallet_address");
  const blocking = issues.filter((issue) => issue !== "no_wallet_address");
  return { canReceiveFirstBookBonus: blocking.length === 0, issues };
}
