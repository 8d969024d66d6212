import type { CurrentUser, LoginInput, RegisterData } from "@shared/auth";
import { safeReturnPath } from "@shared/return-path";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { CURRENT_USER_QUERY_KEY } from "@/features/accounts/use-auth";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { toast } from "@/lib/toast";

async function postForUser(url: string, body: unknown): Promise<CurrentUser> {
  const response = await apiRequest("POST", url, body);
  return (await response.json()) as CurrentUser;
}

// A refusal shows in the form that was sent, and only there (docs/product.md#errors): the screens pass
// it to showServerErrors.

/** After login or registration: adopt the new session, refresh every cached read and return to `next`. */
function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const returnPath = safeReturnPath(new URLSearchParams(useSearch()).get("next"));

  return (user: CurrentUser) => {
    // Setting the user first keeps the next screen from flashing its anonymous version while everything refetches.
    queryClient.setQueryData(CURRENT_USER_QUERY_KEY, user);
    navigate(returnPath);
    void queryClient.invalidateQueries();
  };
}

export function useLogin() {
  const completeSignIn = useCompleteSignIn();
  return useMutation({
    mutationFn: (credentials: LoginInput) => postForUser("/api/auth/login", credentials),
    onSuccess: (user) => {
      completeSignIn(user);
      toast({ title: i18n.t("auth.toasts.welcome.title"), description: i18n.t("auth.toasts.welcome.description", { name: user.displayName }) });
    },
  });
}

export function useRegister() {
  const completeSignIn = useCompleteSignIn();
  return useMutation({
    mutationFn: (account: RegisterData) => postForUser("/api/auth/register", account),
    onSuccess: (user) => {
      completeSignIn(user);
      const welcome = i18n.t("auth.toasts.accountCreated.description", { name: user.firstName || user.displayName });
      // Whether the address was free or not, a message went to it; what it says is for its owner (docs/decisions/0054).
      const mailed = user.email ? ` ${i18n.t("auth.toasts.accountCreated.mailed", { email: user.email })}` : "";
      toast({ title: i18n.t("auth.toasts.accountCreated.title"), description: `${welcome}${mailed}` });
    },
  });
}
