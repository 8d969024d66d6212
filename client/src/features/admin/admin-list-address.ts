import { useSearch, useLocation } from "wouter";

/**
 * A list's search, page and view in the admin tab's address (`/admin/users?q=ana&page=2`,
 * docs/product.md#admin): a page of results is bookmarked, shared and reopened like the tab itself.
 */
export interface AdminListAddress {
  q: string;
  page: number;
  show: string | null;
  /** A new search or view starts again at page 1. */
  change: (next: { q?: string; page?: number; show?: string }) => void;
}

export function useAdminListAddress(): AdminListAddress {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const page = Number(params.get("page"));
  const change = (next: { q?: string; page?: number; show?: string }) => {
    const updated = new URLSearchParams(search);
    const set = (key: string, value: string | undefined) => (value ? updated.set(key, value) : updated.delete(key));
    if (next.q !== undefined) set("q", next.q.trim());
    if (next.show !== undefined) set("show", next.show);
    set("page", next.page && next.page > 1 ? String(next.page) : undefined);
    const query = updated.toString();
    // Typing a search replaces the entry: the back button leaves the list, not each letter.
    navigate(query ? `${location}?${query}` : location, { replace: next.page === undefined });
  };
  return { q: params.get("q") ?? "", page: Number.isInteger(page) && page >= 1 ? page : 1, show: params.get("show"), change };
}
