import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { fetchQueryKey } from "@/lib/api";
import { isUnauthorizedError, redirectToLogin } from "@/lib/login-redirect";

function sendToLoginWhenSessionIsMissing(error: unknown) {
  if (isUnauthorizedError(error)) redirectToLogin(window.location.pathname + window.location.search);
}

/** Cached data never goes stale on its own: screens refresh it by invalidating after a change (docs/product.md#client-data). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: sendToLoginWhenSessionIsMissing }),
    mutationCache: new MutationCache({ onError: sendToLoginWhenSessionIsMissing }),
    defaultOptions: {
      queries: {
        queryFn: fetchQueryKey,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
