import i18n from "@/lib/i18n";
import { ApiError } from "@/lib/api";
import { toast } from "@/lib/toast";

const LOGIN_REDIRECT_DELAY_MS = 500;

let redirectPending = false;

/** Full page loads go through here, so tests can observe them (jsdom cannot load another page). */
export const pageNavigation = {
  assign(url: string): void {
    window.location.href = url;
  },
};

/** The API's answer when a call needs a session and there is none (not a wrong password: that is `invalid_credentials`). */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.body?.code === "unauthorized";
}

/**
 * Tells the visitor they must log in, then leaves for GET /api/login, which answers with
 * /login?next=<returnPath> so the login screen can bring them back.
 */
export function redirectToLogin(returnPath: string): void {
  // Several failing calls, or a protected screen mounting twice, must not stack toasts and timers.
  if (redirectPending) return;
  redirectPending = true;
  toast({
    variant: "destructive",
    title: i18n.t("toasts.loginRequired.title"),
    description: i18n.t("toasts.loginRequired.description"),
  });
  setTimeout(() => {
    redirectPending = false;
    pageNavigation.assign(`/api/login?next=${encodeURIComponent(returnPath)}`);
  }, LOGIN_REDIRECT_DELAY_MS);
}
