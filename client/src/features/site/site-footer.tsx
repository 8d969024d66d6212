import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useRoute } from "wouter";
import { firstScreen } from "@/lib/lazy-screen";
import { useAuth } from "@/features/accounts";

/** From the landing page's chunk, which the app loads before drawing the landing page (App's preloadFirstScreen). */
export const LandingFooterColumns = firstScreen(() => import("@/features/site/landing-page").then((module) => module.FooterColumns));

export function SiteFooter() {
  const { t } = useTranslation();
  const [isHome] = useRoute("/");
  const { isAuthenticated } = useAuth();
  // "/" is the landing page for visitors (see App); signed-in users get their home there instead.
  const isLanding = isHome && !isAuthenticated;

  return (
    <footer className="border-t border-line">
      {/* Reached from another screen, the columns arrive with the landing page; the footer's own line needs no wait. */}
      <Suspense fallback={null}>{isLanding && <LandingFooterColumns />}</Suspense>
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-6 text-sm text-ink-muted sm:flex-row sm:justify-between">
        <p>© {t("app.name")}</p>
        <p>{t("footer.tagline")}</p>
      </div>
    </footer>
  );
}
