import type { CurrentUser } from "@shared/auth";
import { lazy, Suspense, useState } from "react";
import { useMenuButton } from "@/features/site/use-menu-button";
import { useTranslation } from "react-i18next";

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

// Its list comes with its first opening, like a phone's menu (docs/decisions/0047).
const UserMenuList = lazy(() => import("@/features/site/header-menus").then((module) => ({ default: module.UserMenuList })));

/** The signed-in user's menu: a disclosure button with a list of links and the logout action. */
export function UserMenu({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const { isOpen, setIsOpen, trigger, buttonProps } = useMenuButton("user-menu");

  return (
    <div className="relative">
      <button
        {...buttonProps}
        data-testid="user-menu"
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
      {isOpen && (
        <Suspense>
          <UserMenuList trigger={trigger} setOpen={setIsOpen} />
        </Suspense>
      )}
    </div>
  );
}
