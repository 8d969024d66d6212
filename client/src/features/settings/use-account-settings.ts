import type {
  AccountDeletionInput,
  AccountDeletionPreview,
  AccountSessions,
  EReaderEmailInput,
  EmailChangeInput,
  ExplicitBooksInput,
  NotificationsInput,
  PasswordChangeInput,
  ProfileInput,
} from "@shared/account-settings";
import type { CurrentUser } from "@shared/auth";
import type { DigestFrequencyInput } from "@shared/follow-schemas";
import type { PublicShelvesInput } from "@shared/shelf-schemas";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { CURRENT_USER_QUERY_KEY, forgetSession } from "@/features/accounts";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { toast } from "@/lib/toast";

export const ACCOUNT_SESSIONS_QUERY_KEY = ["/api/account/sessions"] as const;
const DELETION_PREVIEW_QUERY_KEY = ["/api/account/deletion-preview"] as const;
export const ACCOUNT_EXPORT_PATH = "/api/account/export";

/** A change answered with the account as it now is: the whole app shows it at once (names in the menu, the unproven address). */
function useAccountChange<Input>(method: "PATCH" | "PUT", url: string, alsoChanged: ReadonlyArray<readonly string[]> = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => (await (await apiRequest(method, url, input)).json()) as CurrentUser,
    onSuccess: (user) => {
      queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
      for (const queryKey of alsoChanged) void queryClient.invalidateQueries({ queryKey });
    },
  });
}

export const useUpdateProfile = () => useAccountChange<ProfileInput>("PATCH", "/api/account/profile");
export const useChangeEmail = () => useAccountChange<EmailChangeInput>("PUT", "/api/account/email");
/** How often new books of followed authors are mailed (docs/product.md#follows). */
export const useUpdateDigest = () => useAccountChange<DigestFrequencyInput>("PUT", "/api/account/digest");
export const useUpdateNotifications = () => useAccountChange<NotificationsInput>("PUT", "/api/account/notifications");
/** The book page's "Send to my e-reader" follows the account: the address is part of it. */
export const useUpdateEReaderEmail = () => useAccountChange<EReaderEmailInput>("PUT", "/api/account/e-reader-email");
/** A reader's public shelves follow the switch: their page is read again (docs/product.md#shelves). */
export const useUpdatePublicShelves = () => useAccountChange<PublicShelvesInput>("PUT", "/api/account/shelves-public", [["/api/readers"]]);
/** The book lists the reader was shown hold explicit books, or not, by this choice: they are read again. */
export const useUpdateExplicitBooks = () => useAccountChange<ExplicitBooksInput>("PUT", "/api/account/explicit-books", [["/api/books"], ["/api/authors"]]);

/** Every other session ends with a new password: the list is read again to show it. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PasswordChangeInput) => {
      await apiRequest("PUT", "/api/account/password", input);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY }),
  });
}

export function useAccountSessions() {
  return useQuery<AccountSessions>({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", `/api/account/sessions/${encodeURIComponent(id)}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await (await apiRequest("POST", "/api/account/sessions/sign-out-others")).json()) as { signedOut: number },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY }),
  });
}

/** What deleting would do, read each time the dialog opens: books and owed payments change in between. */
export function useDeletionPreview() {
  return useQuery<AccountDeletionPreview>({ queryKey: DELETION_PREVIEW_QUERY_KEY, staleTime: 0, gcTime: 0 });
}

/** Deleting ends the session too: the visitor is taken home, signed out, and told. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: async (input: AccountDeletionInput) => {
      await apiRequest("DELETE", "/api/account", input);
    },
    onSuccess: () => {
      // Leave first, as at logout: a protected screen that saw the user vanish would start a login redirect.
      navigate("/");
      // The account's books are withdrawn with it: the catalog is asked again.
      forgetSession(queryClient);
      toast({ title: i18n.t("settings.delete.deleted") });
    },
  });
}
