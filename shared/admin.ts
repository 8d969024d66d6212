import { z } from "zod";
import type { ModerationState } from "./moderation.ts";
import type { FirstBookBonusIssue } from "./rewards.ts";
import type { PaymentCancellation, PaymentHold } from "./wallet.ts";

export const fixFirstBookFlagSchema = z.object({
  bookId: z.number({ error: "validation.bookIdInvalid" }).int("validation.bookIdInvalid").min(1, "validation.bookIdInvalid").max(2_147_483_647, "validation.bookIdInvalid"),
  setAsFirstBook: z.boolean({ error: "validation.required" }),
});
export type FixFirstBookFlagInput = z.infer<typeof fixFirstBookFlagSchema>;

/** The code of the 409 refusing a second first book for one author. */
export const FIRST_BOOK_TAKEN = "first_book_taken";

/** What POST /api/admin/fix-first-book-flag answers: the flag set and how many payments it made owed. */
export interface FirstBookFlagFix {
  bookId: number;
  firstBook: boolean;
  paymentsOwed: number;
}

export interface AdminOverview {
  totals: { users: number; books: number; activeUsers30Days: number };
  /** What each account may keep (STORAGE_QUOTA_PER_ACCOUNT_MB, docs/decisions/0055), in bytes. */
  storageQuotaBytes: number;
}

/** The admin's lists come a page at a time, whatever the number of accounts and books (docs/product.md#admin). */
export const ADMIN_PAGE_SIZE = 25;
const ADMIN_SEARCH_MAX = 100;

const adminPageSchema = z
  .string()
  .regex(/^\d{1,5}$/, "validation.adminPageInvalid")
  .transform(Number)
  .refine((page) => page >= 1, "validation.adminPageInvalid");

/** GET /api/admin/users: accounts whose name, username or e-mail holds `q` (case and accents aside), a page at a time. */
export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(ADMIN_SEARCH_MAX, "validation.adminSearchTooLong").optional(),
  page: adminPageSchema.optional(),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

/** Which books the diagnostics list: those that need the admin (the default), or all of them. */
export const ADMIN_BOOK_VIEWS = ["attention", "all"] as const;
export type AdminBookView = (typeof ADMIN_BOOK_VIEWS)[number];

/** GET /api/admin/books: the books' diagnostics, by title or author, a page at a time. */
export const adminBooksQuerySchema = z.object({
  q: z.string().trim().max(ADMIN_SEARCH_MAX, "validation.adminSearchTooLong").optional(),
  show: z.enum(ADMIN_BOOK_VIEWS, "validation.adminBookViewUnknown").optional(),
  page: adminPageSchema.optional(),
});
export type AdminBooksQuery = z.input<typeof adminBooksQuerySchema>;

export interface AdminPage<Item> {
  items: Item[];
  /** Every match, over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

export interface AdminUser {
  id: string;
  firstName: string | null;
  lastName: string | null;
  username: string;
  booksCount: number;
  /** Every counted download of the user's books, deleted ones included (docs/decisions/0025). */
  totalDownloads: number;
  /** The bytes the user's live books' files keep: what the storage quota counts. */
  storageBytes: number;
  books: Array<{ id: number; title: string; downloadCount: number; tokensEarned: number }>;
}

export interface BookDiagnostics {
  bookId: number;
  bookTitle: string;
  authorId: string;
  authorName: string | null;
  authorEmail: string | null;
  downloadCount: number;
  paidMilestones: number;
  canReceiveFirstBookBonus: boolean;
  issues: FirstBookBonusIssue[];
  /** The author's book marked first (deleted or not), if any: an author has one at most (docs/product.md#books). */
  authorFirstBookId: number | null;
  /** What moderation restricts about the book, if anything (docs/product.md#moderation). */
  moderationState: ModerationState | null;
  /**
   * PME completed for the book, and PME a removal cancelled (decimal strings). What was completed is on
   * the authors' wallets and cannot be taken back on chain (docs/decisions/0090).
   */
  paidAmount: string;
  cancelledAmount: string;
}

export interface QueuedPayment {
  id: number;
  bookId: number | null;
  /** The book and the author by name, as the admin knows them (docs/product.md#admin); null for a payment without a book. */
  bookTitle: string | null;
  authorId: string;
  authorName: string;
  amount: string;
  stage: "queued" | "signed" | "broadcast" | "confirming";
  status: "pending" | "failed" | "cancelled";
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  waitingForWallet: boolean;
  /** A queued payment its book holds, and why (docs/decisions/0090); null otherwise. */
  hold: PaymentHold | null;
  /** A cancelled payment's removal: the decision's id, time and facts. */
  cancellation: PaymentCancellation | null;
}

/**
 * address_book_burst: one book, many downloads from one address; shared_address: many accounts on
 * one address; book_spike: many counted downloads of one book; deleted_accounts: counted downloads
 * from one address by accounts deleted since (thresholds in suspicious-activity.ts).
 */
export type SuspiciousBurstKind = "address_book_burst" | "shared_address" | "book_spike" | "deleted_accounts";

/** A burst in the download log, for the admin's eyes only: it names the address in full. */
export interface SuspiciousBurst {
  kind: SuspiciousBurstKind;
  /** Null for shared_address and deleted_accounts, which watch an address across every book. */
  book: { id: number; title: string } | null;
  /** Null for book_spike, which watches a book across every address, and when addressLabel names it instead. */
  ipAddress: string | null;
  /**
   * When an account behind the burst was deleted, the address is never shown in clear again: the
   * first characters of its keyed hash name it instead (docs/decisions/0049). Null otherwise.
   */
  addressLabel: string | null;
  downloads: number;
  /** Of those downloads, how many counted toward rewards (the rest were only logged). */
  counted: number;
  /** Distinct accounts behind the downloads. */
  accounts: number;
  /** The first and the last download of the burst. */
  windowStart: string;
  windowEnd: string;
}

export interface PaymentDiagnostics {
  /** Pending payments not held, held ones, those signed and on their way, failed ones, and those a removal cancelled. */
  queue: { pending: QueuedPayment[]; held: QueuedPayment[]; inFlight: QueuedPayment[]; failed: QueuedPayment[]; cancelled: QueuedPayment[] };
  reconciliation: Reconciliation;
  /** Bursts of the last SUSPICIOUS_ACTIVITY_DAYS days, newest first. */
  suspiciousActivity: SuspiciousBurst[];
  /** What the payout sender last saw of its hot wallet and chain; null until it has looked once. */
  payoutHealth: PayoutHealth | null;
}

/**
 * Whether payouts go out, and if not why (docs/product.md#hot-wallet-health): short of POL for gas or of
 * PME to pay, finality lagging, or fees above the ceiling. Paused payouts resume by themselves.
 */
export type PayoutHealthState = "sending" | "low-gas" | "low-pme" | "finality-lag" | "fee-ceiling";

export interface PayoutHealth {
  state: PayoutHealthState;
  /** Since when the state is what it is, and when the sender last looked. */
  since: string;
  checkedAt: string;
  /** The address to fund. */
  hotWallet: string;
  /** Balances and the thresholds below which payouts pause, in whole POL and PME (decimal strings). */
  gasBalance: string;
  gasMinimum: string;
  tokenBalance: string;
  tokenMinimum: string;
  finality: { mode: "finalized-tag" | "depth"; lagBlocks: number; lagSeconds: number; maxLagSeconds: number };
  /** The max fee per gas, in gwei: the ceiling, and what the chain needed when it was above it. */
  maxFeeGwei: string;
  feeNeededGwei: string | null;
}

/** The hot wallet's PME transfers on chain compared with the completed payments (docs/product.md#payouts). */
export type Reconciliation =
  | {
      available: true;
      /** Whole PME sent by the hot wallet on the current chain, and completed in the ledger for it. */
      sentOnChain: string;
      completedInLedger: string;
      /** Transfers with no completed payment: sent by hand, or paid twice. */
      transfersWithoutPayment: Array<{ transactionHash: string; to: string; amount: string }>;
      /** Completed payments with no matching transfer (hash, recipient and amount). */
      paymentsWithoutTransfer: Array<{ paymentId: number; transactionHash: string | null }>;
      /** Completed on an earlier chain (a local chain that has since restarted): not comparable here. */
      completedOnEarlierChain: number[];
    }
  | { available: false; reason: string };
