import type { BookPage, ContinueReading, ContinueReadingItem, Shelf, ShelfMap } from "@shared/shelves";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

/**
 * The signed-in reader's shelves (docs/product.md#shelves). Every card of a screen reads one map of
 * the reader's shelved books, fetched once when the first card needs it: no request per card, and
 * nothing of the reader in the catalog's cached answers.
 */
export const SHELF_MAP_KEY = ["/api/shelves"] as const;
/** "My books" and "Continue reading" are read again after a shelf changes. */
export const MY_BOOKS_KEY = "/api/my-books";

export function useShelfMap(enabled: boolean) {
  return useQuery<ShelfMap>({ queryKey: SHELF_MAP_KEY, enabled, staleTime: 5 * 60_000 });
}

/** The shelf a book is on for the signed-in reader, undefined when none (or not known yet). */
export function useShelfOf(bookId: number, enabled: boolean): { shelf: Shelf | undefined; isPending: boolean } {
  const map = useShelfMap(enabled);
  return { shelf: map.data?.shelves[String(bookId)], isPending: enabled && map.isPending };
}

/** Puts a book on a shelf, or takes it off (null): the map changes at once, and back if the server refuses. */
export function useShelveBook(bookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (shelf: Shelf | null) => {
      if (shelf === null) await apiRequest("DELETE", `/api/shelves/${bookId}`);
      else await apiRequest("PUT", `/api/shelves/${bookId}`, { shelf });
    },
    onMutate: async (shelf) => {
      await queryClient.cancelQueries({ queryKey: SHELF_MAP_KEY });
      const before = queryClient.getQueryData<ShelfMap>(SHELF_MAP_KEY);
      const shelves = { ...before?.shelves };
      if (shelf === null) delete shelves[String(bookId)];
      else shelves[String(bookId)] = shelf;
      queryClient.setQueryData<ShelfMap>(SHELF_MAP_KEY, { shelves });
      return { before };
    },
    onSuccess: (_answer, shelf) => {
      toast({ title: shelf === null ? i18n.t("shelves.removed") : i18n.t("shelves.saved", { shelf: i18n.t(`shelves.names.${shelf}`) }) });
      void queryClient.invalidateQueries({ queryKey: [MY_BOOKS_KEY] });
    },
    onError: (error, _shelf, context) => {
      if (context?.before) queryClient.setQueryData(SHELF_MAP_KEY, context.before);
      // Off already (another tab): the map is read again rather than guessed.
      void queryClient.invalidateQueries({ queryKey: SHELF_MAP_KEY });
      if (!isUnauthorizedError(error)) toast({ variant: "destructive", title: i18n.t("shelves.error"), description: errorText(error, "shelves.error") });
    },
  });
}

/** Where the reader was in one book (its page) or the newest few (the home); none once it is on Read. */
export function useContinueReading(enabled: boolean, bookId?: number) {
  return useQuery<ContinueReading>({
    queryKey: [MY_BOOKS_KEY, bookId === undefined ? "continue-reading" : `continue-reading?bookId=${bookId}`],
    enabled,
    staleTime: 0,
  });
}

/** "Continue reading (page 18)", or an EPUB's "(34 %)": the place as the reader last left it. */
export function continueReadingText(
  item: Pick<ContinueReadingItem, "format" | "page" | "percentage">,
  percent: (fraction: number) => string,
  t: (key: string, values: Record<string, unknown>) => string,
): string {
  if (item.format === "epub" && item.percentage !== null) return t("shelves.continuePercent", { percent: percent(item.percentage) });
  return t("shelves.continuePage", { page: item.page });
}

/** A fraction as a whole percentage in the interface's language: "34%", "34 %" (docs/product.md#formats). */
export function usePercentFormat(): (fraction: number) => string {
  const { i18n: current } = useTranslation();
  const language = current.resolvedLanguage ?? "en";
  return useMemo(() => {
    const format = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 });
    return (fraction: number) => format.format(fraction);
  }, [language]);
}

export type { BookPage };
