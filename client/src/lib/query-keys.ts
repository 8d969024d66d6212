/**
 * An author's payments (the rewards feature reads them), under "/api/authors" so that a change to the
 * author's books or wallet refreshes it with the rest. Here rather than in features/rewards/: the
 * wallet refreshes it once an address is proven, and the rewards screens embed the wallet, so the
 * two features would import each other (docs/decisions/0057-client-feature-folders.md).
 */
export const authorPaymentsQueryKey = (authorId: string) => ["/api/authors", authorId, "payments"] as const;
