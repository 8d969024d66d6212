import { type RefObject, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { LanguageSelect } from "@/features/site/language-select";
import { SignInLinks } from "@/features/site/sign-in-links";
import { buttonClassName } from "@/ui/styles";
import { useAuth } from "@/features/accounts";
import { useLogout } from "@/features/accounts";

const phoneLinkClassName = "block rounded-md px-3 py-3 text-base font-medium text-ink hover:bg-accent-soft aria-[current=page]:text-accent";

interface HeaderMenuProps {
  /** The button that opens the menu: the focus goes back to it when Escape closes the menu. */
  trigger: RefObject<HTMLButtonElement | null>;
  /** The button's state setter, called with false to close. */
  setOpen: (open: boolean) => void;
}

/**
 * The header's menus are disclosures, not dialogs: the page stays usable, and a menu closes on
 * Escape (giving the focus back to its button), on a click or focus outside it and its button, and
 * on any change of screen, the back button's included.
 */
function useCloseAsked(panel: RefObject<HTMLElement | null>, { trigger, setOpen }: HeaderMenuProps) {
  const [location] = useLocation();
  const openedAt = useRef(location);
  useEffect(() => {
    if (location !== openedAt.current) setOpen(false);
  }, [location, setOpen]);

  useEffect(() => {
    const isInside = (target: EventTarget | null) => target instanceof Node && (panel.current?.contains(target) || trigger.current?.contains(target));
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    };
    const closeWhenOutside = (event: Event) => {
      if (!isInside(event.target)) setOpen(false);
    };
    document.addEventListener("keydown", closeOnEscape);
    document.addEventListener("pointerdown", closeWhenOutside);
    document.addEventListener("focusin", closeWhenOutside);
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      document.removeEventListener("pointerdown", closeWhenOutside);
      document.removeEventListener("focusin", closeWhenOutside);
    };
  }, [panel, trigger, setOpen]);
  return location;
}

/** Logout inside a menu: the menu closes first, then the session ends. */
function LogoutButton({ testId, close, className }: { testId: string; close: () => void; className: string }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <button
      type="button"
      data-testid={testId}
      disabled={logout.isPending}
      onClick={() => {
        close();
        logout.mutate();
      }}
      className={className}
    >
      {t("nav.logout")}
    </button>
  );
}

const userMenuItemClassName = "block w-full px-4 py-2 text-left text-sm text-ink hover:bg-accent-soft focus-visible:bg-accent-soft";

/** The signed-in user's list under the avatar of the wide header: my books, dashboard, upload, settings and logout. */
export function UserMenuList(props: HeaderMenuProps) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  useCloseAsked(list, props);
  const close = () => props.setOpen(false);
  return (
    <ul ref={list} id="user-menu" className="absolute right-0 z-40 mt-2 w-56 overflow-hidden rounded-md border border-line bg-surface py-1 shadow-lg">
      {[
        ["/my-books", t("nav.myBooks")],
        ["/dashboard", t("nav.dashboard")],
        ["/upload", t("nav.upload")],
        ["/settings", t("nav.settings")],
      ].map(([href, label]) => (
        <li key={href}>
          <Link href={href!} onClick={close} className={userMenuItemClassName}>
            {label}
          </Link>
        </li>
      ))}
      <li className="mt-1 border-t border-line pt-1">
        <LogoutButton testId="logout" close={close} className={userMenuItemClassName} />
      </li>
    </ul>
  );
}

/**
 * A phone's menu (docs/decisions/0047): the links, the language and the account actions of the wide
 * header, under its one-row bar. It takes the focus when it opens.
 */
export function SiteMenu(props: HeaderMenuProps) {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  const panel = useRef<HTMLDivElement>(null);
  const location = useCloseAsked(panel, props);
  const { setOpen } = props;

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>("a, button, select")?.focus();
  }, []);

  const links = [
    { href: "/catalog", label: t("nav.catalog") },
    ...(user
      ? [
          { href: "/my-books", label: t("nav.myBooks") },
          { href: "/upload", label: t("nav.upload") },
          { href: "/dashboard", label: t("nav.dashboard") },
          { href: "/settings", label: t("nav.settings") },
        ]
      : []),
  ];

  return (
    <div
      ref={panel}
      id="site-menu"
      data-testid="site-menu"
      className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-line bg-surface px-4 pt-2 pb-4 shadow-lg md:hidden"
    >
      <nav aria-label={t("nav.main")}>
        <ul>
          {links.map(({ href, label }) => (
            <li key={href}>
              <Link href={href} aria-current={location === href ? "page" : undefined} className={phoneLinkClassName}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-2 flex flex-wrap items-center gap-3 border-t border-line pt-4">
        <LanguageSelect />
      </div>
      {user ? (
        <div className="mt-4 border-t border-line pt-4">
          <LogoutButton testId="site-menu-logout" close={() => setOpen(false)} className={buttonClassName("secondary", "w-full")} />
        </div>
      ) : (
        !isLoading && <SignInLinks className="mt-4 grid grid-cols-2 gap-2 border-t border-line pt-4" loginVariant="secondary" />
      )}
    </div>
  );
}
