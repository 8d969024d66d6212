import { VERIFY_EMAIL_PATH, VERIFY_LINK_REFUSALS, type VerifyLinkRefusal, verifyEmailSchema } from "@shared/email-verification";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { ResendVerificationButton } from "@/features/accounts/resend-verification-button";
import { buttonClassName } from "@/ui/styles";
import { useAuth } from "@/features/accounts/use-auth";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useLogout } from "@/features/accounts/use-logout";
import { useVerifyEmail } from "@/features/accounts/use-email-verification";
import { ApiError } from "@/lib/api";

type Outcome = "checking" | "verified" | "expired" | "used" | "invalid" | "failed" | "signInFirst" | "otherAccount";

const OUTCOME_OF_REFUSAL: Record<VerifyLinkRefusal, Outcome> = {
  verify_link_invalid: "invalid",
  verify_link_used: "used",
  verify_link_expired: "expired",
  verify_sign_in_required: "signInFirst",
  verify_other_account: "otherAccount",
};

function refusalOutcome(error: unknown): Outcome {
  const code = error instanceof ApiError ? error.body?.code : undefined;
  return VERIFY_LINK_REFUSALS.find((refusal) => refusal === code) ? OUTCOME_OF_REFUSAL[code as VerifyLinkRefusal] : "failed";
}

/** Signs out, then on to the sign-in screen, which brings the person back to the link. */
function SignOutAndIn({ signInPath }: { signInPath: string }) {
  const { t } = useTranslation();
  const logout = useLogout(signInPath);
  return (
    <button type="button" className={buttonClassName("primary")} disabled={logout.isPending} onClick={() => logout.mutate()} data-testid="verify-email-sign-out-and-in">
      {t("verifyEmail.page.signOutAndIn")}
    </button>
  );
}

/** What to do next: sign in to the link's account, a new link for a signed-in account whose link expired, else the way on. */
function NextStep({ outcome, signInPath }: { outcome: Outcome; signInPath: string }) {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  if (outcome === "checking" || isLoading) return null;
  if (outcome === "otherAccount" && user) return <SignOutAndIn signInPath={signInPath} />;
  if (outcome === "expired" && user && !user.emailVerified) return <ResendVerificationButton variant="primary" />;
  if (user) {
    return (
      <Link href="/dashboard" className={buttonClassName("primary")} data-testid="verify-email-dashboard">
        {t("verifyEmail.page.toDashboard")}
      </Link>
    );
  }
  const [href, label] =
    outcome === "signInFirst" || outcome === "otherAccount"
      ? [signInPath, "verifyEmail.page.signIn"]
      : ["/login?next=%2Fdashboard", outcome === "expired" ? "verifyEmail.page.signInForNewLink" : "verifyEmail.page.signIn"];
  return (
    <Link href={href} className={buttonClassName("primary")} data-testid="verify-email-sign-in">
      {t(label)}
    </Link>
  );
}

/**
 * Opened from the link mailed to an address (/verify-email?token=…). A link proves the address only
 * in the session of the account it was made for (docs/decisions/0054): signed out, the page spends
 * nothing and offers to sign in, and the sign-in screen brings the person back here, where the link
 * is spent at once and the page says what happened.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const wellFormed = verifyEmailSchema.safeParse({ token }).success;
  const { user, isLoading } = useAuth();
  const verify = useVerifyEmail();
  // A link is single use: React's development double effect, or a re-render, must not spend it twice.
  const sent = useRef(false);
  useEffect(() => {
    if (!wellFormed || isLoading || !user || sent.current) return;
    sent.current = true;
    verify.mutate(token);
  }, [token, wellFormed, isLoading, user, verify]);

  const signInPath = `/login?next=${encodeURIComponent(`${VERIFY_EMAIL_PATH}?token=${token}`)}`;
  const outcome: Outcome = !wellFormed
    ? "invalid"
    : verify.isSuccess
      ? "verified"
      : verify.isError
        ? refusalOutcome(verify.error)
        : !isLoading && !user && verify.isIdle
          ? "signInFirst"
          : "checking";
  const title = t(`verifyEmail.page.${outcome}.title`);
  useDocumentTitle(title);

  return (
    <section className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      {/* The outcome replaces "checking" without a page load: a screen reader hears it. */}
      <div aria-live="polite" className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-8" data-testid="verify-email-result" data-outcome={outcome}>
        <h1 className="text-3xl font-semibold">{title}</h1>
        <p className="mt-2 break-words text-ink-muted">
          {t(`verifyEmail.page.${outcome}.body`, { email: verify.data?.email ?? "" })}
        </p>
        <div className="mt-6">
          <NextStep outcome={outcome} signInPath={signInPath} />
        </div>
      </div>
    </section>
  );
}
