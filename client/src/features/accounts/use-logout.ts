import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { forgetSession } from "@/features/accounts/forget-session";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { toast } from "@/lib/toast";

/**
 * Logging out, apart from logging in and registering (use-auth-mutations.ts): the user menu of every
 * screen needs it, so it comes with a first visit; those come with their own screens (docs/decisions/0028).
 * `destination` is where the person goes once signed out: the home page, or the sign-in screen when they
 * sign out to sign in to another account.
 */
export function useLogout(destination = "/") {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/auth/logout"),
    onSuccess: () => {
      // Leave first: a protected screen that saw the user vanish would start its own login redirect.
      navigate(destination);
      forgetSession(queryClient);
    },
    onError: () => toast({ variant: "destructive", title: i18n.t("common.error"), description: i18n.t("toasts.logoutError") }),
  });
}
