import { zodResolver } from "@hookform/resolvers/zod";
import { type ForgotPasswordInput, forgotPasswordSchema } from "@shared/password-reset";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { AuthCard } from "@/features/accounts/auth-card";
import { FormAlert } from "@/ui/form-alert";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { useForgotPassword } from "@/features/accounts/use-password-reset";
import { showServerErrors } from "@/lib/form-errors";

/**
 * "Forgot password?": one address, then the same answer whether or not it has an account
 * (docs/product.md#password-reset), with what to do when no mail comes.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const form = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const submit = handleSubmit((input) => forgot.mutate(input, { onError: (error) => showServerErrors(error, form) }));
  const sent = forgot.isSuccess ? forgot.variables : undefined;

  return (
    <AuthCard
      title={t(sent ? "passwordReset.forgot.sentTitle" : "passwordReset.forgot.title")}
      subtitle={sent ? t("passwordReset.forgot.sentBody", { email: sent.email }) : t("passwordReset.forgot.subtitle")}
      switchPrompt=""
      switchLinkLabel={t("passwordReset.forgot.backToLogin")}
      switchLinkPath="/login"
    >
      {sent ? (
        <p role="status" data-testid="forgot-password-sent" className="text-sm text-ink-muted">
          {t("passwordReset.forgot.unverifiedHint")}
        </p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
          <FormAlert message={errors.root?.server?.message} />
          <TextField
            label={t("passwordReset.forgot.email")}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            errorKey={errors.email?.message}
            {...register("email")}
          />
          <SubmitButton
            testId="forgot-password-submit"
            isPending={forgot.isPending}
            label={t("passwordReset.forgot.submit")}
            pendingLabel={t("passwordReset.forgot.pending")}
          />
        </form>
      )}
    </AuthCard>
  );
}
