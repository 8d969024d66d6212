// The accounts feature's public file (docs/decisions/0057-client-feature-folders.md): sign-in, sign-up,
// password reset and e-mail verification. Its screens are loaded by App.tsx with import(). Like every
// index it only re-exports, so a chunk gets the files it uses and nothing else this names (vite.config.ts).
export { CURRENT_USER_QUERY_KEY, useAuth } from "./use-auth";
export { GuestOnly } from "./guest-only";
export { RequireAuth } from "./require-auth";
export { EmailVerificationNotice } from "./email-verification-notice";
export { NewPasswordFields } from "./new-password-fields";
export { ResendVerificationButton } from "./resend-verification-button";
export { useLogout } from "./use-logout";
export { forgetSession } from "./forget-session";
export { useAdminResetLink } from "./use-password-reset";
