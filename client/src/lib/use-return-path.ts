import { useLocation, useSearch } from "wouter";

/** Where the reader is now, query included, so that signing in can bring them back here (?next=). */
export function useReturnPath(): string {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
}

/** The login screen, returning to `returnPath` once the reader has signed in. */
export const loginPathReturningTo = (returnPath: string) => `/login?next=${encodeURIComponent(returnPath)}`;
