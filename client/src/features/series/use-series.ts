import type { BookPlacement, SeriesFieldsInput, SeriesPage, SeriesSummary, TagSuggestion } from "@shared/series-and-tags";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

/*
 * Series and tags (docs/product.md#series-and-tags). Query keys start with the path they read: a
 * book's change refreshes "/api/books…" (its placement too), a series' change "/api/series…" and the
 * author's own list.
 */
export const OWN_SERIES_KEY = "/api/account/series";
export const placementKey = (bookId: number) => `/api/books/${bookId}/placement`;
export const seriesKey = (id: number) => `/api/series/${id}`;

export function useBookPlacement(bookId: number, enabled = true) {
  return useQuery<BookPlacement>({ queryKey: [placementKey(bookId)], enabled });
}

export function useSeriesPage(id: number) {
  return useQuery<SeriesPage>({ queryKey: [seriesKey(id)], retry: false });
}

export function useOwnSeries() {
  return useQuery<SeriesSummary[]>({ queryKey: [OWN_SERIES_KEY] });
}

/** Tags that start as the typed text does, most used first; nothing is asked for an empty box. */
export function useTagSuggestions(text: string) {
  const query = text.trim();
  return useQuery<TagSuggestion[]>({ queryKey: [`/api/tags?q=${encodeURIComponent(query)}`], enabled: query.length > 0, staleTime: 30_000 });
}

function useRefreshSeries() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      predicate: ({ queryKey: [path] }) => typeof path === "string" && (path.startsWith("/api/series") || path === OWN_SERIES_KEY || path.startsWith("/api/books")),
    });
}

export function useCreateSeries() {
  const refresh = useRefreshSeries();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fields: SeriesFieldsInput) => (await (await apiRequest("POST", "/api/series", fields)).json()) as SeriesSummary,
    onSuccess: (created) => {
      // In the author's list at once, so a form can choose it before the list is read again.
      queryClient.setQueryData<SeriesSummary[]>([OWN_SERIES_KEY], (list) => [...(list ?? []), created]);
      void refresh();
    },
  });
}

export function useEditSeries(id: number) {
  const refresh = useRefreshSeries();
  return useMutation({
    mutationFn: async (fields: SeriesFieldsInput) => (await (await apiRequest("PUT", `/api/series/${id}`, fields)).json()) as SeriesSummary,
    onSuccess: () => void refresh(),
  });
}

export function useDeleteSeries() {
  const refresh = useRefreshSeries();
  return useMutation({
    mutationFn: (id: number) => apiRequest("DELETE", `/api/series/${id}`),
    onSuccess: () => void refresh(),
  });
}
