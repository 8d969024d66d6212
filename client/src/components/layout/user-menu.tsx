import type { CurrentUser } from "@shared/auth";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useLogout } from "@/hooks/use-logout";

/** First letter of the first name, else of the e-mail, else "U" (docs/product.md#formats). */
export function avatarInitial(user: Pick<CurrentUser, "firstName" | "email">): string {
  const source = user.firstName?.trim() || user.email?.trim() || "";
  const firstCharacter = Array.from(source)[0];
  return firstCharacter ? firstCharacter.toLocaleUpperCase() : "U";
}

function Avatar({ user }: { user: CurrentUser }) {
  const [imageFailed, setImageFailed] = useState(false);
  if (user.profileImageUrl && !imageFailed) {
    return (
      <img src={user.profileImageUrl} alt="" onError={() => setImageFailed(true)} className="size-8 rounded-full object-cover" />
    );
  }
  return (
    <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-accent font-serif text-base text-white">
      {avatarInitial(user)}
    </span>
  );
}

const menuItemClasses = "block w-full px-4 py-2 text-left text-sm text-ink hover:bg-accent-soft focus-visible:bg-accent-soft";

/** The signed-in user's menu: a disclosure button with a list of links and the logout action. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const logout = useLogout();

  useEffect(() => {
    if (!isOpen) return;
    // Clicking elsewhere or tabbing past the last item closes the menu.
    const closeWhenOutside = (event: Event) => {
      if (!containerRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener("pointerdown", closeWhenOutside);
    document.addEventListener("focusin", closeWhenOutside);
    return () => {
      document.removeEventListener("pointerdown", closeWhenOutside);
      document.removeEventListener("focusin", closeWhenOutside);
    };
  }, [isOpen]);

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !isOpen) return;
    event.preventDefault();
    setIsOpen(false);
    triggerRef.current?.focus();
  };
  const close = () => setIsOpen(false);

  return (
    <div ref={containerRef} className="relative" onKeyDown={closeOnEscape}>
      <button
        ref={triggerRef}
        type="button"
        data-testid="user-menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setIsOpen((open) => !open)}
        className="flex min-h-10 items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-ink hover:bg-accent-soft"
      >
        <Avatar user={user} />
        {/* The name comes from the content (not an aria-label), so it always holds the visible name (WCAG 2.5.3). */}
        <span className="sr-only">{t("nav.accountMenu")}: </span>
        <span className="sr-only sm:not-sr-only">
          <span className="inline-block max-w-40 truncate align-middle">{user.displayName}</span>
        </span>
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 text-ink-muted" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 6l4 4 4-4" />
        </svg>
      </button>
      <ul
        id={menuId}
        hidden={!isOpen}
        className="absolute right-0 z-40 mt-2 w-56 overflow-hidden rounded-md border border-line bg-surface py-1 shadow-lg"
      >
        <li>
          <Link href="/dashboard" onClick={close} className={menuItemClasses}>
            {t("nav.dashboard")}
          </Link>
        </li>
        <li>
          <Link href="/upload" onClick={close} className={menuItemClasses}>
            {t("nav.upload")}
          </Link>
        </li>
        <li>
          <Link href="/settings" onClick={close} className={menuItemClasses}>
            {t("nav.settings")}
          </Link>
        </li>
        <li className="mt-1 border-t border-line pt-1">
          <button
            type="button"
            data-testid="logout"
            disabled={logout.isPending}
            onClick={() => {
              close();
              logout.mutate();
            }}
            className={menuItemClasses}
          >
            {t("nav.logout")}
          </button>
        </li>
      </ul>
    </div>
  );
}
