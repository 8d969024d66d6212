import type { QueryClient } from "@tanstack/react-query";
import { CURRENT_USER_QUERY_KEY } from "@/features/accounts/use-auth";

/**
 * What the client drops once the session has ended (a logout, an account deleted), after the screen
 * has left for a public one: the user is gone at once (the server said so), the catalog is asked again, and authors' data is
 * marked stale without being fetched now. The screen still shows the author's own figures until it
 * re-renders signed out, and asking for them signed out would answer 401 and start a login redirect.
 */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
  void queryClient.invalidateQueries({ queryKey: ["/api/books"] });
  void queryClient.invalidateQueries({ queryKey: ["/api/authors"], refetchType: "none" });
}
