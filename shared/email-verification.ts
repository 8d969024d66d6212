import { z } from "zod";

/** How long a verification link works (docs/product.md#accounts). */
export const VERIFY_LINK_VALID_MS = 24 * 60 * 60 * 1000;

/** The screen a verification link opens (client/src/features/accounts/verify-email-page.tsx). */
export const VERIFY_EMAIL_PATH = "/verify-email";

/** A link's token: 256 random bits in base64url (43 characters); anything else is refused before any lookup. */
export const verifyEmailSchema = z.object({
  token: z
    .string({ error: "verifyEmail.invalid" })
    .min(16, "verifyEmail.invalid")
    .max(128, "verifyEmail.invalid")
    .regex(/^[A-Za-z0-9_-]+$/, "verifyEmail.invalid"),
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

/** Why a link was refused: the API's `code`, which the screen turns into its sentence. */
export const VERIFY_LINK_REFUSALS = ["verify_link_invalid", "verify_link_used", "verify_link_expired", "verify_sign_in_required", "verify_other_account"] as const;
export type VerifyLinkRefusal = (typeof VERIFY_LINK_REFUSALS)[number];

export interface VerifiedEmail {
  email: string;
  verifiedAt: string;
}

/** What "send the link again" answers: where the new link went. */
export interface VerificationSent {
  sentTo: string;
}
