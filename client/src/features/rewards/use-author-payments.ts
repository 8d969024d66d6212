import type { AuthorPayment } from "@shared/wallet";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useRef } from "react";
import { authorPaymentsQueryKey } from "@/lib/query-keys";

// Apart from the key (lib/query-keys.ts), which the wallet in every screen's header needs: only the
// signed-in home and the dashboard read the payments, and this stays in their chunks.

/** The dashboard shows the latest five (docs/product.md#screens). */
export const RECENT_PAYMENTS = 5;

/** The first look again at a payment on its way, and the longest wait between two (docs/decisions/0064). */
export const PAYMENT_POLL_FIRST_MS = 1_000;
export const PAYMENT_POLL_MAX_MS = 30_000;
/** The longest delay a browser timer keeps (2³¹ − 1 ms, about 24 days). */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * When to read an author's payments again, or false for never (docs/product.md#client-data): only while one the
 * dashboard shows is pending and can have moved. One waiting for a wallet cannot (connecting one
 * refreshes the payments); one held or postponed can at the time it waits for; one under review when
 * the admin decides, which is no sooner than a person can: every 30 s; one on its way can at any
 * moment: read again after a second, then twice as long each time nothing changed, up to 30 s.
 */
export function paymentsRefetchDelay(payments: AuthorPayment[] | undefined, unchangedReads: number, now: number): number | false {
  const backoff = Math.min(PAYMENT_POLL_FIRST_MS * 2 ** unchangedReads, PAYMENT_POLL_MAX_MS);
  const delays = (payments ?? [])
    .slice(0, RECENT_PAYMENTS)
    .filter(({ status, waiting }) => status === "pending" && waiting?.reason !== "no-wallet")
    .map(({ waiting }) =>
      waiting?.reason === "hold" || waiting?.reason === "retry"
        ? Math.max(Date.parse(waiting.until) - now, backoff)
        : waiting?.reason === "under-review"
          ? PAYMENT_POLL_MAX_MS
          : backoff,
    );
  return delays.length === 0 ? false : Math.min(...delays, LONGEST_TIMER_MS);
}

/**
 * The author's payments, newest first, each with its timeline; only the author and the admin may read
 * them. Read again while one shown can move (paymentsRefetchDelay), and not while the tab is hidden:
 * TanStack Query skips an interval's reads then (refetchIntervalInBackground stays false).
 */
export function useAuthorPayments(authorId: string): UseQueryResult<AuthorPayment[]> {
  // A read that answers the same list keeps the same array (TanStack Query's structural sharing): that
  // is how an unchanged read is told from a change.
  const reads = useRef<{ updatedAt: number; data: AuthorPayment[] | undefined; unchanged: number }>({ updatedAt: 0, data: undefined, unchanged: 0 });
  return useQuery<AuthorPayment[]>({
    queryKey: authorPaymentsQueryKey(authorId),
    refetchInterval: ({ state: { data, dataUpdatedAt } }) => {
      const seen = reads.current;
      if (dataUpdatedAt !== seen.updatedAt) {
        seen.unchanged = data === seen.data ? seen.unchanged + 1 : 0;
        seen.updatedAt = dataUpdatedAt;
        seen.data = data;
      }
      return paymentsRefetchDelay(data, seen.unchanged, Date.now());
    },
  });
}
