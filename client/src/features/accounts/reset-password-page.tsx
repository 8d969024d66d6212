import { zodResolver } from "@hookform/resolvers/zod";
import { type ResetPasswordInput, resetPasswordSchema, resetTokenRule } from "@shared/password-reset";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { AuthCard } from "@/features/accounts/auth-card";
import { NewPasswordFields } from "@/features/accounts/new-password-fields";
import { FormAlert } from "@/ui/form-alert";
import { buttonClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { useResetLinkCheck, useResetPassword } from "@/features/accounts/use-password-reset";
import { ApiError } from "@/lib/api";
import { showServerErrors } from "@/lib/form-errors";

/** The server's refusals of the link itself, each with its own sentence (docs/product.md#password-reset). */
const LINK_REFUSALS: Record<string, string> = {
  reset_link_invalid: "passwordReset.errors.invalid",
  reset_link_used: "passwordReset.errors.used",
  reset_link_expired: "passwordReset.errors.expired",
};

function refusedLinkKey(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.body) return undefined;
  return LINK_REFUSALS[error.body.code];
}

function LinkRefused({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-5">
      <FormAlert message={t(messageKey)} />
      <Link href="/forgot-password" className={buttonClassName("primary", "w-full")}>
        {t("passwordReset.reset.askAgain")}
      </Link>
    </div>
  );
}

/** Opened from a reset link (/reset-password?token=…): a new password, then the sign-in screen. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const reset = useResetPassword();
  const form = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, password: "", confirmPassword: "" },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const submit = handleSubmit((input) => reset.mutate(input, { onError: (error) => showServerErrors(error, form) }));
  const wellFormed = resetTokenRule.safeParse(token).success;
  // Asked as the page opens, so a used or expired link is said so before anything is typed; a link that
  // cannot hold a token needs no asking. The server's answer to the form still decides in the end.
  const check = useResetLinkCheck(token, wellFormed);
  const linkKey = wellFormed ? (refusedLinkKey(check.error) ?? refusedLinkKey(reset.error)) : "passwordReset.errors.invalid";

  return (
    <AuthCard
      title={t(reset.isSuccess ? "passwordReset.reset.doneTitle" : "passwordReset.reset.title")}
      subtitle={t(reset.isSuccess ? "passwordReset.reset.doneBody" : "passwordReset.reset.subtitle")}
      switchPrompt=""
      // Once the password is changed, the card's own button leads to the sign-in: no second "Log in" under it.
      switchLinkLabel={reset.isSuccess ? "" : t("passwordReset.forgot.backToLogin")}
      switchLinkPath="/login"
    >
      {reset.isSuccess ? (
        <Link href="/login" className={buttonClassName("primary", "w-full")} data-testid="reset-password-login">
          {t("passwordReset.reset.logIn")}
        </Link>
      ) : linkKey ? (
        <LinkRefused messageKey={linkKey} />
      ) : check.isPending && wellFormed ? (
        <p role="status" className="text-ink-muted">
          {t("passwordReset.reset.checking")}
        </p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
          <FormAlert message={errors.root?.server?.message} />
          <NewPasswordFields
            labels={{ password: t("passwordReset.reset.password"), confirmPassword: t("passwordReset.reset.confirmPassword") }}
            fields={{ password: register("password"), confirmPassword: register("confirmPassword") }}
            errorKeys={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
          />
          <SubmitButton
            testId="reset-password-submit"
            isPending={reset.isPending}
            label={t("passwordReset.reset.submit")}
            pendingLabel={t("passwordReset.reset.pending")}
          />
        </form>
      )}
    </AuthCard>
  );
}
