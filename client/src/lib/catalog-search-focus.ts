/**
 * The history state of a visit to the catalog made to search (the phone header's magnifier): the
 * catalog then puts the cursor in its search box, as a search button promises, and a reload or a
 * return to that entry does not take the focus again.
 */
export const FOCUS_CATALOG_SEARCH = { focusCatalogSearch: true } as const;

/** True once for the history entry the search link made, which is then marked as served. */
export function takeCatalogSearchFocus(): boolean {
  const state: unknown = window.history.state;
  if (typeof state !== "object" || state === null || !("focusCatalogSearch" in state) || !state.focusCatalogSearch) return false;
  window.history.replaceState({ ...state, focusCatalogSearch: false }, "");
  return true;
}
