import { PUBLIC_CONFIG_API } from "@shared/first-screen-reads";
import type { PublicConfig } from "@shared/wallet";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";

export const PUBLIC_CONFIG_QUERY_KEY = [PUBLIC_CONFIG_API] as const;

/** The token and chain the rewards are paid in (GET /api/config); `enabled` false waits until it is needed. */
export function usePublicConfig(enabled = true): UseQueryResult<PublicConfig> {
  return useQuery<PublicConfig>({ queryKey: PUBLIC_CONFIG_QUERY_KEY, enabled });
}

/**
 * The end of the first-book offer (the server's PROMO_CUTOFF) while it is still ahead, else null:
 * screens advertise the offer only while it can still be earned. The clock is read once per screen.
 */
export function useOpenPromotionEnd(): string | null {
  const { data } = usePublicConfig();
  const [openedAt] = useState(() => Date.now());
  const end = data?.rewards.promoCutoff;
  return end && openedAt < Date.parse(end) ? end : null;
}
