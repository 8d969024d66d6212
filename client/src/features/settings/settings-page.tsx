import type { CurrentUser } from "@shared/auth";
import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { EReaderKeysSection } from "@/features/e-readers";
import { PageFrame } from "@/ui/page-frame";
import { DataSection } from "@/features/settings/data-section";
import { DeleteAccountSection } from "@/features/settings/delete-account-section";
import { DigestSection } from "@/features/settings/digest-section";
import { EReaderEmailSection } from "@/features/settings/e-reader-email-section";
import { EmailSection } from "@/features/settings/email-section";
import { ExplicitBooksSection } from "@/features/settings/explicit-books-section";
import { PublicShelvesSection } from "@/features/settings/public-shelves-section";
import { LanguageSection } from "@/features/settings/language-section";
import { NotificationsSection } from "@/features/settings/notifications-section";
import { PasswordSection } from "@/features/settings/password-section";
import { ProfileSection } from "@/features/settings/profile-section";
import { SessionsSection } from "@/features/settings/sessions-section";
import { useAccountSessions } from "@/features/settings/use-account-settings";
import { useAuth } from "@/features/accounts";

/**
 * A link to a section (/settings#e-readers, from the dashboard) lands on it once the list of devices,
 * the one part above that arrives later, is drawn: it would push the section away after the scroll.
 * The app scrolls every new screen to its top after the screen's own effects, so this waits a frame.
 */
function useScrollToAddressedSection(isLaidOut: boolean) {
  const hasScrolled = useRef(false);
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!isLaidOut || !id || hasScrolled.current) return;
    const frame = requestAnimationFrame(() => {
      hasScrolled.current = true;
      document.getElementById(id)?.scrollIntoView();
    });
    return () => cancelAnimationFrame(frame);
  }, [isLaidOut]);
}

/** The sections in the order shown, each reachable by its id (/settings#e-readers) and from the side list. */
const SECTIONS: { id: string; titleKey: string; render: (user: CurrentUser) => ReactNode }[] = [
  { id: "profile", titleKey: "settings.profile.title", render: (user) => <ProfileSection user={user} /> },
  { id: "language", titleKey: "settings.language.title", render: () => <LanguageSection /> },
  { id: "email", titleKey: "settings.email.title", render: (user) => <EmailSection user={user} /> },
  { id: "password", titleKey: "settings.password.title", render: () => <PasswordSection /> },
  { id: "devices", titleKey: "settings.sessions.title", render: () => <SessionsSection /> },
  { id: "e-readers", titleKey: "eReaders.title", render: () => <EReaderKeysSection /> },
  { id: "e-reader-email", titleKey: "settings.eReaderEmail.title", render: (user) => <EReaderEmailSection user={user} /> },
  { id: "notifications", titleKey: "settings.notifications.title", render: (user) => <NotificationsSection user={user} /> },
  { id: "digest", titleKey: "following.digest.title", render: (user) => <DigestSection user={user} /> },
  { id: "public-shelves", titleKey: "settings.publicShelves.title", render: (user) => <PublicShelvesSection user={user} /> },
  { id: "explicit-books", titleKey: "settings.explicit.title", render: (user) => <ExplicitBooksSection user={user} /> },
  { id: "data", titleKey: "settings.data.title", render: () => <DataSection /> },
  { id: "delete", titleKey: "settings.delete.title", render: () => <DeleteAccountSection /> },
];

/** The sections, each a link to its place on the page. */
function SectionLinks({ className, onChoose }: { className: string; onChoose?: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  const { t } = useTranslation();
  return (
    <ul className={`space-y-1 text-sm ${className}`}>
      {SECTIONS.map((section) => (
        <li key={section.id}>
          <a href={`#${section.id}`} onClick={onChoose} className="block rounded-md px-3 py-2 text-ink-muted hover:bg-accent-soft hover:text-accent-strong">
            {t(section.titleKey)}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Settings({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  useScrollToAddressedSection(!useAccountSessions().isPending);
  return (
    <PageFrame title={t("settings.title")} description={t("settings.subtitle")}>
      <div className="mt-8 lg:grid lg:grid-cols-[13rem_minmax(0,48rem)] lg:gap-10">
        {/* On a wide screen the long page gets a list of its sections beside it; a phone gets the same list folded at its top. */}
        <nav aria-label={t("settings.sectionsLabel")} className="hidden lg:block">
          <SectionLinks className="sticky top-6 -ml-3" />
        </nav>
        <nav aria-label={t("settings.sectionsLabel")} className="mb-6 lg:hidden">
          <details data-testid="settings-sections-phone" className="rounded-xl border border-line bg-surface px-4 py-2 shadow-sm">
            <summary className="flex min-h-11 cursor-pointer items-center font-semibold">{t("settings.sectionsPhone", { count: SECTIONS.length })}</summary>
            <SectionLinks className="pb-2" onChoose={(event) => event.currentTarget.closest("details")?.removeAttribute("open")} />
          </details>
        </nav>
        <div className="space-y-6">
          {SECTIONS.map((section) => (
            <div key={section.id} id={section.id} className="scroll-mt-6">
              {section.render(user)}
            </div>
          ))}
        </div>
      </div>
    </PageFrame>
  );
}

/** The account's settings (docs/product.md#settings): each section saves on its own and says so. */
export function SettingsPage() {
  const { user } = useAuth();
  return user ? <Settings user={user} /> : null;
}
