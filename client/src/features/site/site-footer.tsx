import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRoute } from "wouter";
import { firstScreen } from "@/lib/lazy-screen";
import { useAuth } from "@/features/accounts";

/** From the landing page's chunk, which the app loads before drawing the landing page (App's preloadFirstScreen). */
export const LandingFooterColumns = firstScreen(() => import("@/features/site/landing-page").then((module) => module.FooterColumns));

/** The info pages every screen links to (docs/product.md#info-pages); the landing page has them in its columns. */
const INFO_LINKS = [
  { key: "footer.howItWorks", href: "/help" },
  { key: "footer.authors.guide", href: "/author-guide" },
  { key: "footer.support.terms", href: "/terms" },
  { key: "footer.support.privacy", href: "/privacy" },
  { key: "footer.support.contact", href: "/contact" },
  { key: "footer.support.transparency", href: "/transparency" },
] as const;

function InfoLinks() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("footer.navLabel")} className="mx-auto max-w-6xl px-4 pt-6">
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {INFO_LINKS.map(({ key, href }) => (
          <li key={href}>
            <Link href={href} className="rounded text-ink-muted underline-offset-4 hover:text-accent hover:underline">
              {t(key)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter() {
  const { t } = useTranslation();
  const [isHome] = useRoute("/");
  const { isAuthenticated } = useAuth();
  // "/" is the landing page for visitors (see App); signed-in users get their home there instead.
  const isLanding = isHome && !isAuthenticated;

  return (
    <footer className="border-t border-line">
      {/* Reached from another screen, the columns arrive with the landing page; the footer's own line needs no wait. */}
      {isLanding ? (
        <Suspense fallback={null}>
          <LandingFooterColumns />
        </Suspense>
      ) : (
        <InfoLinks />
      )}
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-6 text-sm text-ink-muted sm:flex-row sm:justify-between">
        <p>© {t("app.name")}</p>
        <p>{t("footer.tagline")}</p>
      </div>
    </footer>
  );
}
