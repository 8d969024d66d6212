import { z } from "zod";
import { EMAIL_MAX, passwordRule } from "./auth.ts";

/**
 * Forgetting and resetting a password (docs/product.md#password-reset), used by the two screens and
 * the API. Messages are translation keys (shared/locales).
 */

/** How long a reset link works. */
export const RESET_LINK_VALID_MS = 60 * 60 * 1000;

export const forgotPasswordSchema = z.object({
  email: z.email("validation.emailInvalid").max(EMAIL_MAX, "validation.emailMax"),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

// A token is 32 random bytes in base64url (43 characters); anything else cannot be one.
export const resetTokenRule = z.string({ error: "passwordReset.errors.invalid" }).regex(/^[A-Za-z0-9_-]{43}$/, "passwordReset.errors.invalid");

export const resetPasswordSchema = z
  .object({
    token: resetTokenRule,
    password: passwordRule,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    message: "validation.passwordsMismatch",
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** What the admin gets once for an account: the link to hand over, and until when it works. */
export interface AdminResetLink {
  url: string;
  expiresAt: string;
}
