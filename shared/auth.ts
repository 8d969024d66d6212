import type { DigestFrequency } from "./returning-readers.ts";
import { z } from "zod";
import { TEXT_INVALID, isSingleLineText } from "./typed-text.ts";

/**
 * The sign-in and registration rules, used by the forms in the browser and by the API.
 * Messages are translation keys (shared/locales), so each side shows them in the reader's language.
 */

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
export const EMAIL_MAX = 255;

export const passwordRule = z
  .string({ error: "validation.required" })
  .min(PASSWORD_MIN, "validation.passwordMin")
  .max(PASSWORD_MAX, "validation.passwordMax");

export const usernameRule = z
  .string({ error: "validation.required" })
  .trim()
  .min(USERNAME_MIN, "validation.usernameMin")
  .max(USERNAME_MAX, "validation.usernameMax")
  // No "@" or spaces: a username can never be mistaken for an e-mail at sign-in.
  .regex(/^[\p{L}\p{N}._-]+$/u, "validation.usernameChars");

/** An e-mail address, as the account's and the e-reader's are checked. */
export const emailRule = z.email("validation.emailInvalid").max(EMAIL_MAX, "validation.emailMax");

export const requiredName = (emptyKey: string) =>
  z.string({ error: emptyKey }).trim().min(1, emptyKey).max(NAME_MAX, "validation.nameMax").refine(isSingleLineText, TEXT_INVALID);

export const loginSchema = z.object({
  // Either a username or an e-mail address.
  username: z
    .string({ error: "validation.required" })
    .trim()
    .min(USERNAME_MIN, "validation.usernameMin")
    .max(EMAIL_MAX, "validation.identifierMax")
    .refine(isSingleLineText, TEXT_INVALID),
  password: passwordRule,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    firstName: requiredName("validation.firstNameRequired"),
    lastName: requiredName("validation.lastNameRequired"),
    username: usernameRule,
    email: z.union([z.literal("").transform(() => undefined), emailRule]).optional(),
    password: passwordRule,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ["confirmPassword"],
    message: "validation.passwordsMismatch",
  });
export type RegisterInput = z.input<typeof registerSchema>;
export type RegisterData = z.output<typeof registerSchema>;

/** The signed-in account as GET /api/auth/user returns it: the owner sees their own e-mail, never a password. */
export interface CurrentUser {
  id: string;
  username: string;
  email: string | null;
  /** Whether the account proved its current e-mail through the link sent to it (docs/product.md#accounts). */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  displayName: string;
  profileImageUrl: string | null;
  walletAddress: string | null;
  /** Whether the author is mailed when a payment completes (docs/product.md#settings). */
  notifyPaymentCompleted: boolean;
  /** Whether the reader chose to see explicit books (docs/product.md#content-ratings). */
  showExplicit: boolean;
  /** Whether the reader's shelves are shown to anyone at /readers/{username} (docs/product.md#shelves). */
  shelvesPublic: boolean;
  /** Where "Send to my e-reader" mails books (docs/product.md#send-to-e-reader); null when none is set. */
  eReaderEmail: string | null;
  /** How often the reader is mailed of new books from followed authors (docs/product.md#follows). */
  digestFrequency: DigestFrequency;
  totalDownloads: number;
  totalEarnings: string;
  isAdmin: boolean;
  /** Until the account signs in again after registering: the screens greet it as new (docs/product.md#accounts). */
  isNewAccount: boolean;
  createdAt: string;
}
