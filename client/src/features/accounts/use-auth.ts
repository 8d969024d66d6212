import type { CurrentUser } from "@shared/auth";
import { CURRENT_USER_API } from "@shared/first-screen-reads";
import { useQuery } from "@tanstack/react-query";

export const CURRENT_USER_QUERY_KEY = [CURRENT_USER_API] as const;

export interface AuthState {
  user: CurrentUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/** The signed-in account; the server answers null, not an error, when nobody is signed in (docs/decisions/0067). */
export function useAuth(): AuthState {
  const { data, isLoading } = useQuery<CurrentUser | null>({ queryKey: CURRENT_USER_QUERY_KEY });
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}
