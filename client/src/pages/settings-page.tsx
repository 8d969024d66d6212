import type { CurrentUser } from "@shared/auth";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { EReaderKeysSection } from "@/components/e-readers/e-reader-keys-section";
import { PageFrame } from "@/components/layout/page-frame";
import { DataSection } from "@/components/settings/data-section";
import { DeleteAccountSection } from "@/components/settings/delete-account-section";
import { EmailSection } from "@/components/settings/email-section";
import { LanguageSection } from "@/components/settings/language-section";
import { NotificationsSection } from "@/components/settings/notifications-section";
import { PasswordSection } from "@/components/settings/password-section";
import { ProfileSection } from "@/components/settings/profile-section";
import { SessionsSection } from "@/components/settings/sessions-section";
import { useAuth } from "@/hooks/use-auth";

/**
 * A link to a section (/settings#e-readers, from the dashboard) lands on it. The app scrolls every new
 * screen to its top after the screen's own effects have run, so this waits for the next frame.
 */
function useScrollToAddressedSection() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const frame = requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView());
    return () => cancelAnimationFrame(frame);
  }, []);
}

function Settings({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  useScrollToAddressedSection();
  return (
    <PageFrame title={t("settings.title")} description={t("settings.subtitle")}>
      <div className="mt-8 max-w-3xl space-y-6">
        <ProfileSection user={user} />
        <LanguageSection />
        <EmailSection user={user} />
        <PasswordSection />
        <SessionsSection />
        <div id="e-readers" className="scroll-mt-24">
          <EReaderKeysSection />
        </div>
        <NotificationsSection user={user} />
        <DataSection />
        <DeleteAccountSection />
      </div>
    </PageFrame>
  );
}

/** The account's settings (docs/product.md#settings): each section saves on its own and says so. */
export function SettingsPage() {
  const { user } = useAuth();
  return user ? <Settings user={user} /> : null;
}
