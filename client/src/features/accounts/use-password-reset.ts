import type { AdminResetLink, ForgotPasswordInput, ResetPasswordInput } from "@shared/password-reset";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

/** Asks for a reset mail; the server answers the same whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: async (input: ForgotPasswordInput) => {
      await apiRequest("POST", "/api/auth/forgot-password", input);
    },
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
