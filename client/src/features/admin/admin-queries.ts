import {
  type AdminBookView,
  type AdminOverview,
  type AdminPage,
  type AdminUser,
  type BookDiagnostics,
  FIRST_BOOK_TAKEN,
  type FirstBookFlagFix,
  type FixFirstBookFlagInput,
  type PaymentDiagnostics,
} from "@shared/admin";
import type { PayoutSla } from "@shared/wallet";
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import i18n from "@/lib/i18n";
import { ApiError, apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

const ADMIN_PATH = "/api/admin";
const OVERVIEW_KEY = `${ADMIN_PATH}/overview-debug`;
const DIAGNOSTICS_KEY = `${ADMIN_PATH}/payment-diagnostics`;
const PAYOUT_SLA_KEY = `${ADMIN_PATH}/payout-sla`;
/** A newly owed payment shows in the author's own payments list too. */
const AUTHORS_PATH = "/api/authors";

/** The API refuses everyone but the admin account with 403 (docs/product.md#roles). */
export function isForbiddenError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

export function useAdminOverview(): UseQueryResult<AdminOverview> {
  return useQuery<AdminOverview>({ queryKey: [OVERVIEW_KEY] });
}

const listPath = (path: string, params: Record<string, string | number>) => {
  const query = new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value === "" || value === 1 ? [] : [[key, String(value)]]))).toString();
  return query ? `${path}?${query}` : path;
};

/** A page of accounts, the search's and the page's; the page shown stays until the next one arrives. */
export function useAdminUsers({ q, page }: { q: string; page: number }): UseQueryResult<AdminPage<AdminUser>> {
  return useQuery<AdminPage<AdminUser>>({ queryKey: [listPath(`${ADMIN_PATH}/users`, { q, page })], placeholderData: keepPreviousData });
}

/** A page of books' diagnostics: those that need the admin, or all. */
export function useBookDiagnostics({ q, show, page }: { q: string; show: AdminBookView; page: number }): UseQueryResult<AdminPage<BookDiagnostics>> {
  return useQuery<AdminPage<BookDiagnostics>>({ queryKey: [listPath(`${ADMIN_PATH}/books`, { q, show, page })], placeholderData: keepPreviousData });
}

export function usePaymentDiagnostics(): UseQueryResult<PaymentDiagnostics> {
  return useQuery<PaymentDiagnostics>({ queryKey: [DIAGNOSTICS_KEY] });
}

/** How long payouts took over 30 days (docs/product.md#what-authors-see); read once, like the rest (docs/product.md#client-data). */
export function usePayoutSla(): UseQueryResult<PayoutSla> {
  return useQuery<PayoutSla>({ queryKey: [PAYOUT_SLA_KEY] });
}

function paymentsOwedSentence(paymentsOwed: number): string | null {
  return paymentsOwed > 0 ? i18n.t("admin.diagnostics.fix.paymentsOwed", { count: paymentsOwed }) : null;
}

/** Marks a book as its author's first book; a bonus that becomes due is owed at once (docs/product.md#rewards). */
export function useMarkAsFirstBook({ bookId, bookTitle }: Pick<BookDiagnostics, "bookId" | "bookTitle">) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const input: FixFirstBookFlagInput = { bookId, setAsFirstBook: true };
      const response = await apiRequest("POST", `${ADMIN_PATH}/fix-first-book-flag`, input);
      return (await response.json()) as FirstBookFlagFix;
    },
    onSuccess: ({ paymentsOwed }) => {
      const description = [i18n.t("admin.diagnostics.fix.successDescription", { title: bookTitle }), paymentsOwedSentence(paymentsOwed)];
      toast({ title: i18n.t("admin.diagnostics.fix.successTitle"), description: description.filter(Boolean).join(" ") });
      // Returned, so the button stays busy until the refreshed rows no longer offer the fix.
      return queryClient.invalidateQueries({
        predicate: ({ queryKey: [path] }) => typeof path === "string" && (path.startsWith(ADMIN_PATH) || path.startsWith(AUTHORS_PATH)),
      });
    },
    onError: (error) => {
      // A lost session already has its own toast and the redirect to the login page.
      if (isUnauthorizedError(error)) return;
      // The refreshed rows then show which book is the author's first.
      const taken = error instanceof ApiError && error.body?.code === FIRST_BOOK_TAKEN;
      toast({
        variant: "destructive",
        title: i18n.t("common.error"),
        description: taken ? i18n.t("admin.diagnostics.fix.firstBookTaken") : errorText(error, "admin.diagnostics.fix.errorFallback"),
      });
      if (taken) return queryClient.invalidateQueries({ queryKey: [DIAGNOSTICS_KEY] });
    },
  });
}
