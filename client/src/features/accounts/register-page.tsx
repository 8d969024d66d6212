import { zodResolver } from "@hookform/resolvers/zod";
import { registerSchema, type RegisterData, type RegisterInput } from "@shared/auth";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AuthCard } from "@/features/accounts/auth-card";
import { NewPasswordFields } from "@/features/accounts/new-password-fields";
import { FormAlert } from "@/ui/form-alert";
import { textLinkClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { useRegister } from "@/features/accounts/use-auth-mutations";
import { showServerErrors } from "@/lib/form-errors";

export function RegisterPage() {
  const { t } = useTranslation();
  const registerAccount = useRegister();
  const form = useForm<RegisterInput, unknown, RegisterData>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: "", lastName: "", username: "", email: "", password: "", confirmPassword: "" },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;

  // React ignores what onSubmit returns; handleSubmit's promise rejects only if this callback throws, and mutate never does.
  const submit = handleSubmit((account) =>
    registerAccount.mutate(account, { onError: (error) => showServerErrors(error, form) }),
  );

  return (
    <AuthCard
      title={t("auth.register.title")}
      subtitle={t("auth.register.subtitle")}
      switchPrompt={t("auth.register.haveAccount")}
      switchLinkLabel={t("auth.register.loginLink")}
      switchLinkPath="/login"
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
        <FormAlert message={errors.root?.server?.message} />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label={t("auth.register.firstName")}
            autoComplete="given-name"
            required
            errorKey={errors.firstName?.message}
            {...register("firstName")}
          />
          <TextField
            label={t("auth.register.lastName")}
            autoComplete="family-name"
            required
            errorKey={errors.lastName?.message}
            {...register("lastName")}
          />
        </div>
        <TextField
          label={t("auth.register.username")}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          errorKey={errors.username?.message}
          {...register("username")}
        />
        <TextField
          label={t("auth.register.email")}
          type="email"
          autoComplete="email"
          optional
          errorKey={errors.email?.message}
          {...register("email")}
        />
        <NewPasswordFields
          labels={{ password: t("auth.register.password"), confirmPassword: t("auth.register.confirmPassword") }}
          fields={{ password: register("password"), confirmPassword: register("confirmPassword") }}
          errorKeys={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
        />
        <p className="text-sm text-ink-muted">
          {t("auth.register.agreement")}{" "}
          <Link href="/terms" className={textLinkClassName}>
            {t("auth.register.termsLink")}
          </Link>
          {" · "}
          <Link href="/privacy" className={textLinkClassName}>
            {t("auth.register.privacyLink")}
          </Link>
        </p>
        <SubmitButton
          testId="register-submit"
          isPending={registerAccount.isPending}
          label={t("auth.register.submit")}
          pendingLabel={t("auth.register.pending")}
        />
      </form>
    </AuthCard>
  );
}
