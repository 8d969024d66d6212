import type { CreatedEReaderKey, EReaderKey, EReaderKeyNameInput } from "@shared/e-reader-keys";
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

export const E_READER_KEYS_QUERY_KEY = ["/api/e-reader-keys"] as const;

/** The signed-in reader's e-reader keys, in use first (docs/product.md#opds). */
export function useEReaderKeys(): UseQueryResult<EReaderKey[]> {
  return useQuery<EReaderKey[]>({ queryKey: E_READER_KEYS_QUERY_KEY });
}

/** Creates a key; the answer holds the key itself, which nothing else ever shows again. */
export function useCreateEReaderKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: EReaderKeyNameInput) => (await apiRequest("POST", "/api/e-reader-keys", input)).json() as Promise<CreatedEReaderKey>,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: E_READER_KEYS_QUERY_KEY }),
  });
}

export function useRevokeEReaderKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", `/api/e-reader-keys/${encodeURIComponent(id)}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: E_READER_KEYS_QUERY_KEY }),
  });
}
