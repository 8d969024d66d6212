import type { CurrentUser } from "@shared/auth";
import { useQuery } from "@tanstack/react-query";
import { getQueryFn } from "@/lib/api";

export const CURRENT_USER_QUERY_KEY = ["/api/auth/user"] as const;

export interface AuthState {
  user: CurrentUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** The signed-in account; a 401 from the server means an anonymous visitor, not an error. */
export function useAuth(): AuthState {
  const { data, isLoading } = useQuery({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: getQueryFn<CurrentUser>({ on401: "returnNull" }),
  });
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}
