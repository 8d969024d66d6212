import type { PaymentView, PublicConfig } from "@shared/wallet";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";

export const PUBLIC_CONFIG_QUERY_KEY = ["/api/config"] as const;

/** Under "/api/authors", so a change to the author's books or wallet refreshes it with the rest. */
export const authorPaymentsQueryKey = (authorId: string) => ["/api/authors", authorId, "payments"] as const;

/** The token and chain the rewards are paid in (GET /api/config); `enabled` false waits until it is needed. */
export function usePublicConfig(enabled = true): UseQueryResult<PublicConfig> {
  return useQuery<PublicConfig>({ queryKey: PUBLIC_CONFIG_QUERY_KEY, enabled });
}

/** The author's payments, newest first; only the author and the admin may read them. */
export function useAuthorPayments(authorId: string): UseQueryResult<PaymentView[]> {
  return useQuery<PaymentView[]>({ queryKey: authorPaymentsQueryKey(authorId) });
}
