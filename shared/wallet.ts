import type { PaymentHoldingCategory } from "./notices.ts";

/** The chain id of the local Hardhat chain the embedded default pays on (and of `npm run chain`). */
export const LOCAL_CHAIN_ID = 31337;

/** First 6 characters, an ellipsis, and the characters from index 38 (docs/product.md#formats): 0x1234…abcd. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(38)}`;
}

export interface PaymentView {
  id: number;
  amount: string;
  status: "pending" | "completed" | "failed" | "cancelled";
  triggeredAt: string;
  completedAt: string | null;
  transactionHash: string | null;
  bookId: number | null;
  bookTitle: string | null;
  kind: "milestone" | "first-book-bonus";
  milestone: number | null;
}

/**
 * Why an owed payment has not arrived yet (docs/product.md#what-authors-see): no wallet to send it to,
 * the hold period, a postponed attempt (both until a time), on its way, or waiting for finality.
 */
export type PaymentWait =
  | { reason: "no-wallet" }
  | { reason: "hold"; until: string }
  | { reason: "retry"; until: string }
  | { reason: "sending" }
  | { reason: "finality" }
  | ({ reason: "under-review" } & PaymentHold);

/**
 * Why a book's owed payments are held, never sent (docs/product.md#rewards): the decision that hid
 * (or suspended, or removed) it, with its facts, or the oldest open notice of a category that holds
 * payments. `since` is when the hold began: the decision's time, or the notice's.
 */
export interface PaymentHold {
  since: string;
  because: { kind: "decision"; decisionId: number; action: "hide" | "remove" | "suspend"; facts: string } | { kind: "notice"; category: PaymentHoldingCategory };
}

/** A payment a book's removal cancelled: the removal's statement of reasons, which the dashboard shows. */
export interface PaymentCancellation {
  decisionId: number;
  at: string;
  facts: string;
}

/** A payment as its author's timeline tells it: owed (triggeredAt) → sent → finalized (completedAt). */
export interface AuthorPayment extends PaymentView {
  /** When its first transaction was broadcast. */
  sentAt: string | null;
  /** Pending payments only. */
  waiting: PaymentWait | null;
  /** Failed payments only: what went wrong, when known. */
  failureReason: string | null;
  /** Cancelled payments only. */
  cancellation: PaymentCancellation | null;
}

/** GET /api/admin/payout-sla: how long owed payments took to complete over the last 30 days. */
export interface PayoutSla {
  days: number;
  /** Payments completed in those days. */
  completed: number;
  /** Seconds from owed to completed; null without completed payments. */
  p50Seconds: number | null;
  p99Seconds: number | null;
  /** The oldest payment still owed: when it became owed and how old it is now; null when none is owed. */
  oldestOwedAt: string | null;
  oldestOwedAgeSeconds: number | null;
}

/** GET /api/config: what the browser needs to add the chain and the token to a wallet, and to tell the reward offer. */
export interface PublicConfig {
  productName: string;
  /** The address the contact page gives (CONTACT_EMAIL); null when none is published. */
  contactEmail: string | null;
  /** The designated contact for notices, a name and postal address (LEGAL_CONTACT); null when none is named. */
  legalContact: string | null;
  /** The address Plume's mail comes from (MAIL_FROM's): a Kindle takes mail only from senders its owner approved. */
  mailSender: string;
  rewards: {
    /** ISO timestamp: the first-book offer holds for a second counted download before it (PROMO_CUTOFF). */
    promoCutoff: string;
    /** Counted downloads of one book from one address per 24 hours (COUNTED_PER_IP_PER_BOOK_PER_DAY). */
    countedPerAddressPerDay: number;
  };
  token: {
    address: string;
    symbol: "PME";
    decimals: 18;
    chainId: number;
    /** The chain's own name (Polygon); null for a chain without one, named by the app in the reader's language. */
    chainName: string | null;
    rpcUrl: string;
    explorerUrl: string | null;
  };
  /** WalletConnect's project and relay (WALLETCONNECT_PROJECT_ID, WALLETCONNECT_RELAY_URL); null when the operator set none, and the app offers no WalletConnect. */
  walletConnect: { projectId: string; relayUrl: string } | null;
}
