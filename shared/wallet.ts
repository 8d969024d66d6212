/** First 6 characters, an ellipsis, and the characters from index 38 (docs/product.md#formats): 0x1234…abcd. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(38)}`;
}

export interface PaymentView {
  id: number;
  amount: string;
  status: "pending" | "completed" | "failed";
  triggeredAt: string;
  completedAt: string | null;
  transactionHash: string | null;
  bookId: number | null;
  bookTitle: string | null;
  kind: "milestone" | "first-book-bonus";
  milestone: number | null;
}

/** GET /api/config: what the browser needs to add the chain and the token to a wallet, and to tell the reward offer. */
export interface PublicConfig {
  productName: string;
  rewards: {
    /** ISO timestamp: the first-book offer holds for a second counted download before it (PROMO_CUTOFF). */
    promoCutoff: string;
  };
  token: {
    address: string;
    symbol: "PME";
    decimals: 18;
    chainId: number;
    chainName: string;
    rpcUrl: string;
    explorerUrl: string | null;
  };
}
