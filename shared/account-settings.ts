import { z } from "zod";
import { emailRule, passwordRule, requiredName, usernameRule } from "./auth.ts";

/**
 * The settings screen's forms and the /api/account calls (docs/product.md#settings) validate with
 * these same rules. Messages are translation keys (shared/locales).
 */

/** The current password, as typed to confirm a sensitive change: only its presence is checked here. */
const currentPasswordRule = z.string({ error: "validation.required" }).min(1, "validation.required").max(1024, "validation.passwordMax");

export const profileSchema = z.object({
  firstName: requiredName("validation.firstNameRequired"),
  lastName: requiredName("validation.lastNameRequired"),
  username: usernameRule,
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** A new address is unproven until the link mailed to it is opened; the password guards against a borrowed session. */
export const emailChangeSchema = z.object({
  email: emailRule,
  currentPassword: currentPasswordRule,
});
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

export const passwordChangeSchema = z
  .object({
    currentPassword: currentPasswordRule,
    password: passwordRule,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    message: "validation.passwordsMismatch",
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const notificationsSchema = z.object({
  paymentCompleted: z.boolean({ error: "validation.invalid" }),
});
export type NotificationsInput = z.infer<typeof notificationsSchema>;

/** Whether explicit books are shown to the reader: off until they choose it (docs/product.md#content-ratings). */
export const explicitBooksSchema = z.object({
  showExplicit: z.boolean({ error: "validation.invalid" }),
});
export type ExplicitBooksInput = z.infer<typeof explicitBooksSchema>;

/**
 * The address "Send to my e-reader" mails books to (docs/product.md#send-to-e-reader), checked as the
 * account's e-mail is; empty (or null) clears it.
 */
export const eReaderEmailSchema = z.object({
  eReaderEmail: z.union([z.literal("").transform(() => null), emailRule]).nullable(),
});
export type EReaderEmailInput = z.input<typeof eReaderEmailSchema>;
export type EReaderEmailData = z.output<typeof eReaderEmailSchema>;

export const accountDeletionSchema = z.object({
  currentPassword: currentPasswordRule,
});
export type AccountDeletionInput = z.infer<typeof accountDeletionSchema>;

/** A session's public id: a digest of its cookie's id, never the id itself. */
export const sessionIdSchema = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, "validation.invalid") });

/** A signed-in browser as the settings screen lists it. */
export interface AccountSession {
  id: string;
  /** The session the list was asked from. */
  current: boolean;
  /** When this browser signed in; null for sessions made before Plume recorded it. */
  signedInAt: string | null;
  /** When the session was last used (it is renewed at each request). */
  lastActiveAt: string;
  /** The browser's own description of itself (its User-Agent), cut to 300 characters; null when it sent none. */
  userAgent: string | null;
}

export interface AccountSessions {
  sessions: AccountSession[];
}

/** What deleting the account would do, told before the person confirms it. */
export interface AccountDeletionPreview {
  /** Live books (published or not) that would be withdrawn and whose files would be removed. */
  books: number;
  /** Payments still owed to the account, with their sum in PME. */
  owedPayments: number;
  owedAmount: string;
  /** Where owed payments would still be sent; null when none is connected, and then they are forfeited. */
  walletAddress: string | null;
}
