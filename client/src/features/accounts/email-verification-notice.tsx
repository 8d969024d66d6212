import type { CurrentUser } from "@shared/auth";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { buttonClassName } from "@/ui/styles";
import { ResendVerificationButton } from "@/features/accounts/resend-verification-button";
import { WarningIcon } from "@/ui/icons";

/**
 * An account with no address at all is asked to add one (docs/product.md#accounts): without it a
 * forgotten password needs the admin, and no mail it chose can reach it.
 */
function AddEmailNotice() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="add-email-title" data-testid="add-email-notice" className="mt-6 flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <div className="min-w-0 space-y-1">
        <h2 id="add-email-title" className="font-semibold">
          {t("verifyEmail.addNotice.title")}
        </h2>
        <p className="text-ink-muted">{t("verifyEmail.addNotice.body")}</p>
      </div>
      <Link href="/settings#email" className={buttonClassName("secondary", "shrink-0")}>
        {t("verifyEmail.addNotice.action")}
      </Link>
    </section>
  );
}

/**
 * Shown while the account's address is unproven (docs/product.md#accounts): nothing is withheld from
 * a reader or an author meanwhile, but a forgotten password can only be reset through a proven address.
 * An account without one is asked to add one.
 */
export function EmailVerificationNotice({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  if (!user.email) return <AddEmailNotice />;
  if (user.emailVerified) return null;
  return (
    <section
      aria-labelledby="email-verification-title"
      data-testid="email-verification-notice"
      className="mt-6 flex flex-col gap-3 rounded-xl border border-amber-500 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-start sm:gap-4"
    >
      <WarningIcon />
      <div className="min-w-0 flex-1 space-y-2">
        <h2 id="email-verification-title" className="font-semibold">
          {t("verifyEmail.notice.title")}
        </h2>
        <p className="break-words">{t("verifyEmail.notice.body", { email: user.email })}</p>
        <ResendVerificationButton />
      </div>
    </section>
  );
}
