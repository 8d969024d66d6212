import type { VerificationSent, VerifiedEmail } from "@shared/email-verification";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CURRENT_USER_QUERY_KEY } from "@/features/accounts/use-auth";
import { apiRequest } from "@/lib/api";

/** Spends a verification link; the signed-in account, if it is the one proven, then shows it verified. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => (await (await apiRequest("POST", "/api/auth/verify-email", { token })).json()) as VerifiedEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY }),
  });
}

/** "Send the link again" for the signed-in account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: async () => (await (await apiRequest("POST", "/api/auth/verify-email/resend")).json()) as VerificationSent,
  });
}
