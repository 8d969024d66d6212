import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearch } from "wouter";
import { useAuth } from "@/features/accounts/use-auth";
import { redirectToLogin } from "@/lib/login-redirect";

/** Shows a protected screen to a signed-in user; an anonymous visitor is told, then sent to log in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { isAuthenticated, isLoading } = useAuth();
  const [path] = useLocation();
  const search = useSearch();
  const mustLogIn = !isLoading && !isAuthenticated;

  useEffect(() => {
    if (mustLogIn) redirectToLogin(search ? `${path}?${search}` : path);
  }, [mustLogIn, path, search]);

  if (isAuthenticated) return children;
  return (
    <p role="status" className="mx-auto max-w-6xl px-4 py-16 text-ink-muted">
      {t(isLoading ? "common.loading" : "common.redirectingToLogin")}
    </p>
  );
}
