import { useTranslation } from "react-i18next";
import { buttonClassName } from "@/ui/styles";
import { useResendVerification } from "@/features/accounts/use-email-verification";
import { ApiError } from "@/lib/api";

/** What each refusal of "send the link again" tells the person (server/accounts/email-verification-service.ts). */
const RESEND_REFUSALS: Record<string, string> = {
  rate_limited: "verifyEmail.resend.tooMany",
  mail_not_sent: "verifyEmail.resend.notSent",
  email_already_verified: "verifyEmail.resend.alreadyVerified",
};

function refusalKey(error: unknown): string {
  return (error instanceof ApiError && error.body && RESEND_REFUSALS[error.body.code]) || "verifyEmail.resend.failed";
}

/** Mails a new verification link to the signed-in account, then says where it went. */
export function ResendVerificationButton({ variant = "secondary" }: { variant?: "primary" | "secondary" }) {
  const { t } = useTranslation();
  const resend = useResendVerification();
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={buttonClassName(variant)}
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
        data-testid="resend-verification"
      >
        {t(resend.isPending ? "verifyEmail.resend.pending" : "verifyEmail.resend.button")}
      </button>
      <p role="status" className="text-sm">
        {resend.isSuccess ? t("verifyEmail.resend.sent", { email: resend.data.sentTo }) : null}
      </p>
      {resend.isError ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {t(refusalKey(resend.error))}
        </p>
      ) : null}
    </div>
  );
}
