import { lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { LanguageSelect } from "@/features/site/language-select";
import { SignInLinks } from "@/features/site/sign-in-links";
import { useMenuButton } from "@/features/site/use-menu-button";
import { UserMenu } from "@/features/site/user-menu";
import { SearchIcon } from "@/ui/icons";
import { FOCUS_CATALOG_SEARCH } from "@/lib/catalog-search-focus";
import { useAuth } from "@/features/accounts";

function NavItem({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const isCurrent = location === href;
  return (
    <li>
      <Link
        href={href}
        aria-current={isCurrent ? "page" : undefined}
        className={`rounded px-1 py-2 underline-offset-8 hover:text-accent hover:underline ${
          isCurrent ? "text-accent underline decoration-2" : "text-ink"
        }`}
      >
        {children}
      </Link>
    </li>
  );
}

function Logo() {
  const { t } = useTranslation();
  return (
    <Link href="/" className="flex items-center gap-2 rounded font-serif text-2xl font-semibold text-ink">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="7" className="fill-accent" />
        <path
          d="M23.5 5.5c-6.8.6-11.6 5.4-13.4 13.6l-1.6 7.4 1.7.4 1.3-5.6c5.7-.4 9.6-3.5 11.1-9.1l-3.4.9 3.9-3.3c.3-1.3.4-2.7.4-4.3z"
          className="fill-paper"
        />
      </svg>
      {t("app.name")}
    </Link>
  );
}

// Only a phone opens it, and only when asked: its code stays out of the first visit (docs/decisions/0047).
const SiteMenu = lazy(() => import("@/features/site/header-menus").then((module) => ({ default: module.SiteMenu })));

const phoneBarButton = "flex min-h-10 min-w-10 items-center justify-center gap-1.5 rounded-md px-2 text-sm font-semibold text-ink hover:bg-accent-soft";

/** A phone's header is one row: the catalog's search and a menu with everything the wide header shows. */
function PhoneBar() {
  const { t } = useTranslation();
  const { isOpen, setIsOpen, trigger, buttonProps } = useMenuButton("site-menu");
  return (
    <div className="ml-auto flex items-center gap-1 md:hidden">
      <Link href="/catalog" state={FOCUS_CATALOG_SEARCH} aria-label={t("nav.search")} className={phoneBarButton}>
        <SearchIcon className="size-5" />
      </Link>
      <button {...buttonProps} data-testid="site-menu-button" className={phoneBarButton}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d={isOpen ? "M5 5l10 10M15 5L5 15" : "M3 5h14M3 10h14M3 15h14"} />
        </svg>
        {t("nav.menu")}
      </button>
      {isOpen && (
        <Suspense>
          <SiteMenu trigger={trigger} setOpen={setIsOpen} />
        </Suspense>
      )}
    </div>
  );
}

export function TopNav() {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();

  return (
    <header className="relative border-b border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Logo />
        <nav aria-label={t("nav.main")} className="max-md:hidden">
          <ul className="flex flex-wrap items-center gap-x-4 text-sm font-medium">
            <NavItem href="/catalog">{t("nav.catalog")}</NavItem>
            {user && (
              <>
                <NavItem href="/upload">{t("nav.upload")}</NavItem>
                <NavItem href="/dashboard">{t("nav.dashboard")}</NavItem>
              </>
            )}
          </ul>
        </nav>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2 max-md:hidden">
          <LanguageSelect />
          {user ? (
            <UserMenu user={user} />
          ) : (
            // While the session is being checked the sign-in links hold their place unseen: the bar
            // never flickers between the two states, and nothing below it moves when they appear.
            <SignInLinks className={`flex items-center gap-2 ${isLoading ? "invisible" : ""}`} loginVariant="ghost" />
          )}
        </div>
        <PhoneBar />
      </div>
    </header>
  );
}
