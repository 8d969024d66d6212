import type { AdminResetLink, ForgotPasswordInput, ResetPasswordInput } from "@shared/password-reset";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

/** Asks for a reset mail; the server answers the same whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: async (input: ForgotPasswordInput) => {
      await apiRequest("POST", "/api/auth/forgot-password", input);
    },
  });
}

/** Whether the link can still be used, asked once as the page opens: a used or expired one says so before anything is typed. */
export function useResetLinkCheck(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ["/api/auth/reset-password/check", token],
    queryFn: async () => {
      await apiRequest("GET", `/api/auth/reset-password/check?token=${encodeURIComponent(token)}`);
      return true;
    },
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: async (input: ResetPasswordInput) => {
      await apiRequest("POST", "/api/auth/reset-password", input);
    },
  });
}

/** The admin's reset link for an account, shown once. */
export function useAdminResetLink() {
  return useMutation({
    mutationFn: async (userId: string) => {
      const response = await apiRequest("POST", `/api/admin/users/${encodeURIComponent(userId)}/reset-link`);
      return (await response.json()) as AdminResetLink;
    },
  });
}
