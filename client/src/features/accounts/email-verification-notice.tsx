import type { CurrentUser } from "@shared/auth";
import { useTranslation } from "react-i18next";
import { ResendVerificationButton } from "@/features/accounts/resend-verification-button";
import { WarningIcon } from "@/ui/icons";

/**
 * Shown while the account's address is unproven (docs/product.md#accounts): nothing is withheld from
 * a reader or an author meanwhile, but a forgotten password can only be reset through a proven address.
 */
export function EmailVerificationNotice({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  if (!user.email || user.emailVerified) return null;
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
